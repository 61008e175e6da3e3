import NFCTags

extension TagConnection {
    /// The NDEF operations for the tag on this connection: `Type2Tag` over the Type 2 link,
    /// `Type4Tag` over the APDU channel. One place decides, for the CLI and the sessions alike.
    /// - Parameter classicKeys: MIFARE Classic keys to try after the well-known ones (`--keys`).
    /// - Throws: `TagError.unsupported` for tags that are none of the families.
    public func ndefOperations(classicKeys: [[UInt8]] = []) throws(TagError) -> NDEFTagOperations {
        if let link = type2 { return Type2Tag(link: link) }
        if tag.technology == .mifareClassic {
            guard let link = mifareClassic, let layout = MifareClassicLayout(sak: tag.sak ?? 0) ?? MifareClassicLayout(atr: tag.atr) else {
                throw TagError.unsupported("MIFARE Classic on reader \(tag.reader.name): it offers no MIFARE Classic authentication")
            }
            return MifareClassicTag(link: link, layout: layout, extraKeys: classicKeys)
        }
        if let link = iso15693 { return Type5Tag(link: link) }
        if tag.technology == .type5 {
            throw TagError.unsupported("ISO 15693 (NFC-V) tags on reader \(tag.reader.name): it cannot pass ISO 15693 commands; use \(PCSCReaderProfile.iso15693ReaderHint)")
        }
        if tag.technology == .lowFrequency {
            throw TagError.unsupported("NDEF on a low-frequency (125 kHz) card: it carries none")
        }
        if tag.technology == .feliCa {
            guard let link = feliCa else {
                throw TagError.unsupported("FeliCa on this reader (it cannot pass FeliCa commands)")
            }
            // PC/SC readers report the IDm only: Type3Tag's Polling for 12FC brings the PMm.
            let identity = tag.feliCa ?? FeliCaIdentity(idm: tag.uid, pmm: [], systemCode: [])
            return Type3Tag(feliCa: FeliCaTag(link: link, idm: identity.idm, pmm: identity.pmm, systemCode: identity.systemCode))
        }
        if let apdu { return Type4Tag(transceiver: apdu) }
        throw TagError.unsupported("NDEF on \(tag.technology.rawValue) tags")
    }
}

/// What a tag is, for reports (`scan`, `inventory`): best effort, never throws.
public struct NDEFTagDetails: Sendable, Hashable {
    /// e.g. `NTAG213`, `Type 4 (mapping 2.0)`; nil when it could not be told. A Type 2 chip is
    /// named only when GET_VERSION identified it.
    public var product: String?
    /// The Type 2 chip the CC size suggests when GET_VERSION could not identify it (the reader
    /// cannot pass it, or the tag does not implement it): shown as "NTAG213-sized (from CC)".
    public var productGuess: String?
    /// Largest NDEF message the tag holds, in bytes.
    public var capacity: Int?
    public var status: NDEFTagStatus?
    /// ISO 15693 tags: the memory and IC reference Get System Info reported (docs/tags-and-readers.md §7.4).
    public var iso15693: ISO15693SystemInfo?

    public init(product: String? = nil, productGuess: String? = nil, capacity: Int? = nil, status: NDEFTagStatus? = nil) {
        self.product = product
        self.productGuess = productGuess
        self.capacity = capacity
        self.status = status
    }

    /// Describes the tag from what the operations already learned: after `readNDEF()` no exchange
    /// at all (Type 2 reuses its cached pages and GET_VERSION answer, Type 4 the CC its read
    /// opened with). On an object that has not talked to the tag yet, one CC read (Type 4) or the
    /// CC and TLV pages (Type 2) — never the same data twice.
    public init(describing ops: NDEFTagOperations) {
        if let type2 = ops as? Type2Tag {
            guard let info = try? type2.inspect() else { self.init(); return }
            let identified = info.productIdentified
            self.init(product: identified ? info.product.description : nil,
                      productGuess: identified || info.product == .unknown ? nil : info.product.description,
                      capacity: info.capacity, status: info.isWritable ? .readWrite : .readOnly)
            return
        }
        if let type5 = ops as? Type5Tag {
            guard let info = try? type5.inspect() else { self.init(product: type5.product.description); return }
            self.init(product: info.product.description, capacity: info.capacity,
                      status: info.capabilityContainer == nil ? .notSupported : info.isWritable ? .readWrite : .readOnly)
            iso15693 = info.systemInfo ?? ISO15693SystemInfo(uid: info.uid, blockSize: info.blockSize, blockCount: info.blockCount)
            return
        }
        if let type3 = ops as? Type3Tag {
            let product = type3.feliCa.product.description
            guard let query = try? type3.queryNDEFStatus() else { self.init(product: product); return }
            self.init(product: product, capacity: query.capacity, status: query.status)
            return
        }
        if let classic = ops as? MifareClassicTag {
            // The card is known from its SAK or ATR; a card without a MAD has no NDEF capacity.
            let product = classic.layout.productName
            guard let query = try? classic.queryNDEFStatus() else { self.init(product: product); return }
            self.init(product: product, capacity: query.capacity, status: query.status)
            return
        }
        if let type4 = ops as? Type4Tag {
            do {
                self.init(describing: try type4.knownCapabilityContainer ?? type4.readCapabilityContainer())
            } catch TagError.notNDEFFormatted {
                self.init(capacity: 0, status: .notSupported)
            } catch {
                self.init()
            }
            return
        }
        let query = try? ops.queryNDEFStatus()
        self.init(capacity: query?.capacity, status: query?.status)
    }

    /// A Type 4 tag's details from its capability container (what `Type4Tag.queryNDEFStatus()`
    /// derives from it, without an exchange).
    public init(describing cc: Type4CapabilityContainer) {
        let status: NDEFTagStatus
        if !cc.readAccess.isGranted {
            status = .notSupported
        } else {
            status = cc.writeAccess.isGranted ? .readWrite : .readOnly
        }
        self.init(product: "Type 4 (mapping \(cc.mappingVersion >> 4).\(cc.mappingVersion & 0x0F))",
                  capacity: status == .notSupported ? 0 : cc.capacity, status: status)
    }
}
