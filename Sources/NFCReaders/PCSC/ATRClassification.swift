import NFCTags
import ReaderCore

/// What the PC/SC backend learns from a contactless ATR: the technology and, for ISO 14443-4
/// cards, the historical bytes (from the ATS). The whole ATR is parsed (`ATR` in NFCTags,
/// TCK checked); nothing is decided from a single byte (docs/tags-and-readers.md §3 and §7.9).
struct ATRClassification: Equatable, Sendable {
    var technology: TagTechnology
    var historicalBytes: [UInt8]

    /// - Storage card (`3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN …`): by the standard byte SS
    ///   and card name (`StorageCardTechnology`): ISO 14443A is Type 2 unless the name is MIFARE
    ///   Classic/Mini (NTAG reports `00 03` like Ultralight); ISO 15693 part 3/4 is Type 5; FeliCa
    ///   (SS `11` or name `00 3B`) and low frequency (SS `40`: an Elatec TWN4 reports a Hitag card
    ///   as `…03 06 40 00 00…`) are named; iCLASS, 14443B storage cards and the rest are `.other`.
    /// - ISO 14443-4 (`3B 8n 80 01 <historical bytes> TCK`): Type 4.
    /// - Anything else, or an ATR that does not parse: `.other`.
    static func classify(_ atr: [UInt8]) -> ATRClassification {
        let other = ATRClassification(technology: .other, historicalBytes: [])
        guard let parsed = try? ATR(bytes: atr) else { return other }
        switch parsed.contactless {
        case let .storageCard(standard, name):
            switch StorageCardTechnology(standard: standard, name: name) {
            case .iso14443A: return ATRClassification(technology: .type2, historicalBytes: [])
            case .iso15693: return ATRClassification(technology: .type5, historicalBytes: [])
            case .felica: return ATRClassification(technology: .feliCa, historicalBytes: [])
            case .lowFrequency: return ATRClassification(technology: .lowFrequency, historicalBytes: [])
            case .mifareClassic: return ATRClassification(technology: .mifareClassic, historicalBytes: [])
            case .iso14443B, .iclass, .other: return other
            }
        case let .iso14443_4(historicalBytes):
            return ATRClassification(technology: .type4, historicalBytes: historicalBytes)
        case .other:
            return other
        }
    }
}
