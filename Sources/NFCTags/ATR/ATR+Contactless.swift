/// The card behind a PC/SC contactless ATR (PC/SC Part 3 §3.1.3.2.3; docs/tags-and-readers.md §3).
public enum ContactlessCard: Equatable, Hashable, Sendable {
    /// A storage card (no ISO 14443-4): the reader describes it with an RID `A0 00 00 03 06`
    /// application identifier. `standard` is SS (`03` = ISO 14443A part 3).
    case storageCard(standard: UInt8, name: StorageCardName)
    /// An ISO 14443-4 (ISO-DEP) card, e.g. an NFC Forum Type 4 tag; the historical bytes are
    /// the ATS historical bytes (type A) or ATQB application data (type B).
    case iso14443_4(historicalBytes: [UInt8])
    /// Not the PC/SC contactless pattern `3B 8n 80 01 …`: a contact card or an unknown reader's ATR.
    case other
}

extension ATR {
    /// RID of the PC/SC workgroup, used in storage-card ATRs.
    public static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    /// What a PC/SC contactless reader says is in its field.
    ///
    /// Only the exact pattern TS = 3B, TD1 = 80, TD2 = 01 and no other interface byte counts
    /// as contactless; then historical bytes `80 4F len RID SS NN NN …` describe a storage card
    /// and anything else is an ISO 14443-4 card. Every other ATR is `.other`.
    public var contactless: ContactlessCard {
        let pattern = [InterfaceBytes(td: 0x80), InterfaceBytes(td: 0x01)]
        guard convention == .direct, interfaceBytes == pattern else { return .other }
        let h = historicalBytes
        // 80 = category indicator (status in TLV), 4F = application identifier, then its length.
        if h.count >= 11, h[0] == 0x80, h[1] == 0x4F, h[2] >= 8, 3 + Int(h[2]) <= h.count,
           Array(h[3..<8]) == Self.pcscRID {
            let name = StorageCardName(code: UInt16(h[9]) << 8 | UInt16(h[10]))
            return .storageCard(standard: h[8], name: name)
        }
        return .iso14443_4(historicalBytes: h)
    }

    /// The ATR a PC/SC reader builds for an ISO 14443-4 card: `3B 8n 80 01 <n bytes> TCK`.
    /// - Throws: `ATRError.tooLong` when more than 15 historical bytes are given.
    public static func iso14443_4(historicalBytes: [UInt8]) throws(ATRError) -> ATR {
        guard historicalBytes.count <= 15 else { throw ATRError.tooLong(5 + historicalBytes.count) }
        return try withCheckByte([0x3B, 0x80 | UInt8(historicalBytes.count), 0x80, 0x01] + historicalBytes)
    }

    /// The ATR a PC/SC reader builds for a storage card:
    /// `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 TCK`.
    public static func storageCard(standard: UInt8 = 0x03, name: StorageCardName) -> ATR {
        let code = name.code
        let body: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C] + pcscRID
            + [standard, UInt8(code >> 8), UInt8(code & 0xFF), 0x00, 0x00, 0x00, 0x00]
        // A fixed, valid structure: parsing cannot fail.
        return try! withCheckByte(body)
    }

    private static func withCheckByte(_ body: [UInt8]) throws(ATRError) -> ATR {
        try ATR(bytes: body + [body.dropFirst().reduce(0, ^)])
    }
}
