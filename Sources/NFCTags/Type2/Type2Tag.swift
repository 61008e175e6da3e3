/// What `Type2Tag.inspect()` learns about a tag.
public struct Type2TagInfo: Sendable, Hashable {
    /// The chip: from GET_VERSION when `productIdentified`, else a guess from the CC size (which
    /// still sizes lock areas and formatting, but must not be reported as fact: real NTAG216s carry
    /// factory NTAG213 CCs, and NTAG203 and Ultralight C share the NTAG213's CC size).
    public var product: Type2Product
    /// GET_VERSION answered and named the chip.
    public var productIdentified: Bool {
        guard let version else { return false }
        return Type2Product(version: version) != nil
    }
    /// The GET_VERSION answer; nil when the link cannot send it or the tag did not answer.
    public var version: [UInt8]?
    public var capabilityContainer: Type2CapabilityContainer
    /// The largest NDEF message the tag can hold, after TLV overhead and reserved areas.
    public var capacity: Int
    /// CC write access is `0`.
    public var isWritable: Bool
    /// Length of the stored NDEF message; nil when the data area has no NDEF TLV.
    public var messageLength: Int?
}

/// An NFC Forum Type 2 tag (NTAG21x, MIFARE Ultralight family) over a `Type2Link`
/// (docs/tags-and-readers.md §1).
///
/// The tag is read lazily: GET_VERSION once (when the link passes raw commands), then the CC and
/// the first TLVs, then only the pages the NDEF TLV needs. Pages read are kept for the lifetime of
/// the object (one connection) and updated by its own writes; any failed exchange drops them.
/// Every error is a `TagError`.
///
/// Exchanges for `readNDEF()` on a fresh object: [1 GET_VERSION] + the reads covering page 3 up to
/// the last page of the message. The theoretical minimum is 1 + ceil(4 × pages / fastReadLimit)
/// with FAST_READ, and 1 exchange per 16 (or 4, Identiv) bytes with READ; the first exchange
/// reads ahead as far as one exchange carries, so a fresh read meets that minimum.
public final class Type2Tag: NDEFTagOperations {
    public let link: Type2Link
    let cache: Type2PageCache
    /// nil: not asked yet.
    private var versionProbe: VersionProbe?

    enum VersionProbe: Equatable {
        case answered([UInt8])
        case unanswered
        case notAsked
    }

    /// No I/O happens until the first operation.
    public init(link: Type2Link) {
        self.link = link
        self.cache = Type2PageCache(link: link)
    }

    /// The chip, from GET_VERSION when the link can send it, else from the CC data area size
    /// (`.unknown` when neither tells).
    /// - Throws: `TagError` from the exchanges (reads the CC page when GET_VERSION does not decide).
    public var product: Type2Product {
        get throws(TagError) {
            try guarded { () throws(TagError) in
                let probe = try probeVersion()
                if case let .answered(version) = probe { return Type2Product(version: version) ?? .unknown }
                _ = try cache.byte(at: 12)
                let cc = cache.page(3)
                guard cc[0] == Type2CapabilityContainer.magic else { return .unknown }
                return Type2Product(ccDataAreaSize: cc[2], versionUnanswered: probe == .unanswered)
            }
        }
    }

    /// The largest NDEF message the tag can hold.
    /// - Throws: as `inspect()`.
    public var capacity: Int { get throws(TagError) { try inspect().capacity } }

    /// The CC grants writing.
    /// - Throws: as `inspect()`.
    public var isWritable: Bool { get throws(TagError) { try inspect().isWritable } }

    /// Detects the product and reads the CC and the TLVs up to the NDEF TLV.
    /// - Throws: `TagError.notNDEFFormatted` (bad CC magic or version), `.invalidTagData` (TLVs),
    ///   and the link's errors (`.tagLost`, `.nak`, `.status`, `.malformedReply`, …).
    public func inspect() throws(TagError) -> Type2TagInfo {
        try guarded { () throws(TagError) in
            let (layout, product) = try readLayout()
            let cc = layout.capabilityContainer
            return Type2TagInfo(product: product, version: answeredVersion, capabilityContainer: cc,
                                capacity: layout.capacity(at: layout.ndefAddress),
                                isWritable: cc.isWritable, messageLength: layout.ndef?.length)
        }
    }

    /// Core NFC's `queryNDEFStatus`: `.notSupported` (capacity 0) when the tag is not NDEF formatted.
    public func queryNDEFStatus() throws(TagError) -> (status: NDEFTagStatus, capacity: Int) {
        do throws(TagError) {
            let info = try inspect()
            return (info.isWritable ? .readWrite : .readOnly, info.capacity)
        } catch TagError.notNDEFFormatted {
            return (.notSupported, 0)
        }
    }

    // MARK: - Internals shared by the operation files

    var answeredVersion: [UInt8]? {
        if case let .answered(v)? = versionProbe { return v }
        return nil
    }

    /// Runs `body`; on any error drops the cached pages (the tag may have changed or gone).
    func guarded<T>(_ body: () throws(TagError) -> T) throws(TagError) -> T {
        do throws(TagError) {
            return try body()
        } catch {
            cache.removeAll()
            throw error
        }
    }

    /// A caller that wants the chip named even through a reader nfctap does not know (`dump`):
    /// the link starts trying its raw path (`offerRawCommands`), and GET_VERSION is asked again if
    /// it could not be asked before.
    func offerRawCommands() {
        guard !link.canSendRawCommands else { return }
        link.offerRawCommands()
        if link.canSendRawCommands, versionProbe == .notAsked { versionProbe = nil }
    }

    /// GET_VERSION once per object. A tag that does not implement it (Ultralight, Ultralight C)
    /// makes the link throw `.unsupported` or `.nak` after re-selecting it; that is not an error here.
    func probeVersion() throws(TagError) -> VersionProbe {
        if let versionProbe { return versionProbe }
        var probe = VersionProbe.notAsked
        if link.canSendRawCommands {
            do throws(TagError) {
                let version = try link.getVersion()
                guard version.count == 8 else {
                    throw TagError.malformedReply("GET_VERSION returned \(version.count) bytes, not 8")
                }
                probe = .answered(version)
            } catch TagError.unsupported, TagError.nak {
                // The reader may have turned out unable to ask (a refused transparent session):
                // then the tag was not asked, which says nothing about the chip.
                probe = link.canSendRawCommands ? .unanswered : .notAsked
            }
        }
        versionProbe = probe
        configureCache(product: productFromVersion(probe))
        return probe
    }

    private func productFromVersion(_ probe: VersionProbe) -> Type2Product? {
        if case let .answered(v) = probe { return Type2Product(version: v) ?? .unknown }
        return nil
    }

    /// FAST_READ only for chips known to implement it (NXP product type 03 Ultralight EV1 or
    /// 04 NTAG in GET_VERSION): Ultralight and Ultralight C go mute on it.
    private func configureCache(product: Type2Product?) {
        if let v = answeredVersion, v[1] == 0x04, v[2] == 0x03 || v[2] == 0x04, link.fastReadLimit >= 4 {
            cache.fastReadPages = link.fastReadLimit / 4
        } else {
            cache.fastReadPages = 0
        }
        if let product, let pages = product.totalPages {
            cache.memoryEnd = pages * 4
            if let cc = product.capabilityContainer { cache.readAheadLastPage = (cc.dataArea.upperBound - 1) / 4 }
        }
    }

    /// Product detection, the CC and the TLV walk.
    func readLayout() throws(TagError) -> (Type2Layout, Type2Product) {
        let probe = try probeVersion()
        _ = try cache.byte(at: 12) // reads ahead from page 3 as far as one exchange carries
        let cc = try Type2CapabilityContainer(bytes: cache.page(3))
        let product: Type2Product
        if case let .answered(v) = probe {
            product = Type2Product(version: v) ?? .unknown
        } else {
            product = Type2Product(ccDataAreaSize: cc.dataAreaSize, versionUnanswered: probe == .unanswered)
        }
        if answeredVersion != nil, let physical = product.userMemorySize, cc.dataAreaByteCount > physical {
            throw TagError.invalidTagData("CC data area of \(cc.dataAreaByteCount) bytes exceeds the \(product)'s \(physical) bytes")
        }
        cache.guardAgainstRollOver = answeredVersion == nil
        cache.readAheadLastPage = (cc.dataArea.upperBound - 1) / 4
        let layout = try Type2Layout.walk(capabilityContainer: cc, byte: cache.byte(at:))
        return (layout, product)
    }
}
