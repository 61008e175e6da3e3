import NFCTags
import ReaderCore

/// What the PC/SC backend learns from a contactless ATR: the technology and, for ISO 14443-4
/// cards, the historical bytes (from the ATS). The whole ATR is parsed (`ATR` in NFCTags,
/// TCK checked); nothing is decided from a single byte (specs §3).
struct ATRClassification: Equatable, Sendable {
    var technology: TagTechnology
    var historicalBytes: [UInt8]

    /// - Storage card (`3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN …`): Type 2 unless the card
    ///   name is MIFARE Classic/Mini or FeliCa (also by standard SS `11`/`12`); NTAG reports
    ///   `00 03` like Ultralight.
    /// - ISO 14443-4 (`3B 8n 80 01 <historical bytes> TCK`): Type 4.
    /// - Anything else, or an ATR that does not parse: `.other`.
    static func classify(_ atr: [UInt8]) -> ATRClassification {
        let other = ATRClassification(technology: .other, historicalBytes: [])
        guard let parsed = try? ATR(bytes: atr) else { return other }
        switch parsed.contactless {
        case let .storageCard(standard, name):
            switch name {
            case .mifareClassic1K, .mifareClassic4K, .mifareMini: return other
            case .felica: return ATRClassification(technology: .feliCa, historicalBytes: [])
            default:
                // Standard 11/12: FeliCa 212/424 (docs/tags-and-readers.md §9.1).
                if standard == 0x11 || standard == 0x12 { return ATRClassification(technology: .feliCa, historicalBytes: []) }
                // Older ACS firmware: standard 03 with card names F0 11 / F0 12 ("FeliCa 212K/424K").
                if case let .unknown(code) = name, code == 0xF011 || code == 0xF012 {
                    return ATRClassification(technology: .feliCa, historicalBytes: [])
                }
                return ATRClassification(technology: .type2, historicalBytes: [])
            }
        case let .iso14443_4(historicalBytes):
            return ATRClassification(technology: .type4, historicalBytes: historicalBytes)
        case .other:
            return other
        }
    }
}
