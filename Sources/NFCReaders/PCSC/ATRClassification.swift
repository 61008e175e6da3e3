// TEMPORARY (issue 3): a minimal ATR classifier until NFCTags' `ATR` parser lands; the lead
// replaces `ATRClassification.classify` with it. Keep its rules in step with
// specs/tags-and-readers.md §3 until then.

/// What the PC/SC backend learns from a contactless ATR: the technology and, for ISO 14443-4
/// cards, the historical bytes (from the ATS).
struct ATRClassification: Equatable, Sendable {
    var technology: TagTechnology
    var historicalBytes: [UInt8]

    /// PC/SC Part 3 RID for storage cards.
    static let storageRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    /// Classifies a whole ATR; anything it does not recognise (or a wrong TCK) is `.other`.
    ///
    /// - Storage card `3B 8F 80 01 80 4F 0C <RID A0 00 00 03 06> SS NN NN 00 00 00 00 TCK`:
    ///   Type 2 unless the card name NN NN is MIFARE Classic (`00 01`, `00 02`, Mini `00 26`) or
    ///   the card is FeliCa (name `00 3B`, or standard SS `11`/`12`). NTAG reports `00 03` like Ultralight.
    /// - ISO 14443-4 card `3B 8n 80 01 <n historical bytes> TCK`: Type 4.
    static func classify(_ atr: [UInt8]) -> ATRClassification {
        let other = ATRClassification(technology: .other, historicalBytes: [])
        // TS, T0 (Y1 = TD1 present, K = n), TD1 = 80 (TD2 present, T=0), TD2 = 01 (T=1), history, TCK.
        guard atr.count >= 5, atr[0] == 0x3B, atr[1] & 0xF0 == 0x80, atr[2] == 0x80, atr[3] == 0x01 else {
            return other
        }
        let n = Int(atr[1] & 0x0F)
        guard atr.count == 4 + n + 1 else { return other }
        // TCK makes the XOR of every byte after TS zero.
        guard atr.dropFirst().reduce(0, ^) == 0 else { return other }
        let historical = Array(atr[4..<(4 + n)])

        // 80 = category indicator, 4F = application identifier tag, 0C = its length.
        if historical.count == 15, historical[0] == 0x80, historical[1] == 0x4F, historical[2] == 0x0C,
           Array(historical[3..<8]) == storageRID {
            let standard = historical[8]
            let name = UInt16(historical[9]) << 8 | UInt16(historical[10])
            let classicOrFeliCa: Set<UInt16> = [0x0001, 0x0002, 0x0026, 0x003B]
            if classicOrFeliCa.contains(name) || standard == 0x11 || standard == 0x12 { return other }
            return ATRClassification(technology: .type2, historicalBytes: [])
        }
        return ATRClassification(technology: .type4, historicalBytes: historical)
    }
}
