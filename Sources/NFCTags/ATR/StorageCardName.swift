/// The card name NN NN of a PC/SC storage-card ATR.
public enum StorageCardName: Equatable, Hashable, Sendable {
    case mifareClassic1K       // 00 01
    case mifareClassic4K       // 00 02
    /// 00 03: MIFARE Ultralight, and every NTAG21x (readers report NTAG this way).
    case mifareUltralight
    case mifareMini            // 00 26
    case mifareUltralightC     // 00 3A
    case felica                // 00 3B
    case mifareUltralightEV1   // 00 3D
    case unknown(UInt16)

    public init(code: UInt16) {
        switch code {
        case 0x0001: self = .mifareClassic1K
        case 0x0002: self = .mifareClassic4K
        case 0x0003: self = .mifareUltralight
        case 0x0026: self = .mifareMini
        case 0x003A: self = .mifareUltralightC
        case 0x003B: self = .felica
        case 0x003D: self = .mifareUltralightEV1
        default: self = .unknown(code)
        }
    }

    /// NN NN as a number.
    public var code: UInt16 {
        switch self {
        case .mifareClassic1K: return 0x0001
        case .mifareClassic4K: return 0x0002
        case .mifareUltralight: return 0x0003
        case .mifareMini: return 0x0026
        case .mifareUltralightC: return 0x003A
        case .felica: return 0x003B
        case .mifareUltralightEV1: return 0x003D
        case let .unknown(code): return code
        }
    }
}
