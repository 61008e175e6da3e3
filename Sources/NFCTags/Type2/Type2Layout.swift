/// The TLV structure of a Type 2 data area (docs/tags-and-readers.md §1): which bytes are
/// reserved (Lock Control / Memory Control areas), where the NDEF TLV sits, where a new one would go.
///
/// Addresses are memory byte addresses (page × 4 + byte). Reserved bytes inside the data area are
/// skipped by every walk over it, for TLV headers as well as for values.
struct Type2Layout: Sendable, Equatable {
    /// The NDEF message TLV (type 03).
    struct NDEFTLV: Sendable, Equatable {
        /// Address of the `03` byte.
        var typeAddress: Int
        /// Addresses of the length field: one byte, or `FF hi lo`.
        var lengthAddresses: [Int]
        /// Address of the first value byte (may equal the data area end for an empty message).
        var valueStart: Int
        var length: Int
    }

    /// Type 2 READ takes a one-byte page number: data beyond page FFh needs SECTOR_SELECT.
    static let addressableBytes = 256 * 4

    var capabilityContainer: Type2CapabilityContainer
    /// Areas named by Lock Control TLVs (type 01), in TLV order.
    var lockAreas: [Type2LockArea] = []
    /// Areas named by Memory Control TLVs (type 02), in TLV order.
    var reservedAreas: [Type2LockArea] = []
    var ndef: NDEFTLV?
    /// Where the NDEF TLV goes when writing: the existing one, else the first byte after the last
    /// control or proprietary TLV (NULL TLVs and the terminator there are overwritten). nil when
    /// the data area has no room left.
    var ndefAddress: Int?

    var dataArea: Range<Int> { capabilityContainer.dataArea }

    /// True when `address` holds NDEF-area data (inside the data area, outside every reserved area).
    func isUsable(_ address: Int) -> Bool {
        guard dataArea.contains(address) else { return false }
        for area in lockAreas where area.range.contains(address) { return false }
        for area in reservedAreas where area.range.contains(address) { return false }
        return true
    }

    /// The first usable address at or after `address` (the data area end if there is none).
    func usable(from address: Int) -> Int {
        var a = max(address, dataArea.lowerBound)
        while a < dataArea.upperBound && !isUsable(a) { a += 1 }
        return min(a, dataArea.upperBound)
    }

    /// The addresses of `count` usable bytes starting at `start` (skipping reserved bytes).
    /// - Throws: `TagError.invalidTagData` when they run past the data area.
    func addresses(from start: Int, count: Int) throws(TagError) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(max(0, count))
        var a = usable(from: start)
        while out.count < count {
            guard a < dataArea.upperBound else {
                throw TagError.invalidTagData("\(count) TLV bytes from \(start) run past the data area end (\(dataArea.upperBound))")
            }
            out.append(a)
            a = usable(from: a + 1)
        }
        return out
    }

    /// Usable bytes from `start` to the end of the data area.
    func usableCount(from start: Int) -> Int {
        var n = 0
        var a = usable(from: start)
        while a < dataArea.upperBound {
            n += 1
            a = usable(from: a + 1)
        }
        return n
    }

    /// The largest NDEF message a TLV starting at `address` can hold: 1-byte length up to FEh,
    /// 3-byte length (`FF hi lo`) above. The terminator is optional and not counted.
    func capacity(at address: Int?) -> Int {
        guard let address else { return 0 }
        let room = usableCount(from: address)
        let short = min(room - 2, 0xFE)
        let long = room - 4 >= 0xFF ? min(room - 4, 0xFFFE) : 0
        return max(0, short, long)
    }

    /// The dynamic lock areas to set when locking: those of the Lock Control TLVs, else the
    /// product's known position, else the NFC Forum default after the data area.
    func dynamicLockAreas(product: Type2Product) -> [Type2LockArea] {
        if !lockAreas.isEmpty { return lockAreas }
        if let area = product.defaultDynamicLockArea { return [area] }
        if product == .unknown, let area = Type2LockArea.nfcForumDefault(dataArea: dataArea) { return [area] }
        return []
    }
}

extension Type2Layout {
    /// Walks the TLVs from page 4 up to the NDEF TLV, the terminator or the data area end.
    ///
    /// `byte` fetches one memory byte (the caller reads pages on demand). NULL TLVs (00) have no
    /// length; Lock Control (01) and Memory Control (02) must have length 3 and are recorded;
    /// NDEF (03) ends the walk; FD and any other type are skipped by their length; FE ends the walk.
    /// - Throws: `TagError.invalidTagData` for a TLV whose length or value runs past the data area,
    ///   a control TLV with a bad length, or a reserved area over pages 0-3 or over bytes already
    ///   walked; `TagError.unsupported` for a data area beyond page FFh.
    static func walk(capabilityContainer cc: Type2CapabilityContainer, byte: (Int) throws(TagError) -> UInt8) throws(TagError) -> Type2Layout {
        var layout = Type2Layout(capabilityContainer: cc)
        guard cc.dataArea.upperBound <= addressableBytes else {
            throw TagError.unsupported("a data area of \(cc.dataAreaByteCount) bytes reaches beyond page FFh (sectors)")
        }
        let end = cc.dataArea.upperBound
        var a = layout.usable(from: cc.dataArea.lowerBound)
        var afterLastTLV = a
        while a < end {
            let type = try byte(a)
            if type == 0x00 { a = layout.usable(from: a + 1); continue }
            if type == 0xFE { break }

            // Length: one byte, or FF followed by a big-endian 16-bit length.
            let l0 = layout.usable(from: a + 1)
            guard l0 < end else { throw TagError.invalidTagData("TLV \([type].hexString) at \(a) has no length byte") }
            var lengthAddresses = [l0]
            var length = Int(try byte(l0))
            if length == 0xFF {
                let rest = try layout.addresses(from: l0 + 1, count: 2)
                lengthAddresses += rest
                length = Int(try byte(rest[0])) << 8 | Int(try byte(rest[1]))
            }
            let valueStart = layout.usable(from: lengthAddresses[lengthAddresses.count - 1] + 1)
            let valueAddresses = try layout.addresses(from: valueStart, count: length)
            let valueEnd = (valueAddresses.last ?? (valueStart - 1)) + 1

            switch type {
            case 0x01, 0x02:
                let value = try valueAddresses.map(byte)
                let area = type == 0x01 ? try Type2LockArea(lockControl: value) : try Type2LockArea(memoryControl: value)
                guard area.address >= 16, area.range.upperBound <= addressableBytes else {
                    throw TagError.invalidTagData("control TLV at \(a) names bytes \(area.range), outside the tag's pages 4-FFh")
                }
                if area.range.overlaps(cc.dataArea.lowerBound ..< valueEnd) {
                    throw TagError.invalidTagData("control TLV at \(a) reserves bytes \(area.range) that overlap TLVs before it")
                }
                if type == 0x01 { layout.lockAreas.append(area) } else { layout.reservedAreas.append(area) }
            case 0x03:
                layout.ndef = NDEFTLV(typeAddress: a, lengthAddresses: lengthAddresses, valueStart: valueStart, length: length)
                layout.ndefAddress = a
                return layout
            default:
                break // FD (proprietary) or an unknown type: skipped by its length.
            }
            afterLastTLV = layout.usable(from: valueEnd)
            a = afterLastTLV
        }
        layout.ndefAddress = afterLastTLV < end ? afterLastTLV : nil
        return layout
    }
}
