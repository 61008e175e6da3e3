/// The ISO 15693 chip, told from the UID (MSB first) and the IC reference of Get System Info
/// (docs/tags-and-readers.md §7.5). Falls back to the manufacturer, then to "ISO 15693 tag".
public enum Type5Product: Sendable, Hashable, CustomStringConvertible {
    case icodeSLI, icodeSLIX, icodeSLIX2, ntag5
    case icodeSLIS, icodeSLIXS, icodeSLIL, icodeSLIXL
    case st25dv04k, st25dv16or64k, st25dvKC
    case tagItHFIPlus, tagItHFIStandard, tagItHFIPro
    /// Known manufacturer, chip not told.
    case manufacturer(code: UInt8)
    case unknown

    public init(uid: [UInt8], icReference: UInt8?) {
        guard uid.count == 8, uid[0] == 0xE0 else { self = .unknown; return }
        let mfr = uid[1], b2 = uid[2], b3 = uid[3]
        switch mfr {
        case ISO15693Manufacturer.nxp:
            switch b2 {
            case 0x01:
                switch b3 & 0x18 {
                case 0x10: self = .icodeSLIX
                case 0x08: self = .icodeSLIX2
                case 0x18: self = .ntag5
                default: self = .icodeSLI
                }
            case 0x02: self = b3 & 0x10 != 0 ? .icodeSLIXS : .icodeSLIS
            case 0x03: self = b3 & 0x10 != 0 ? .icodeSLIXL : .icodeSLIL
            default: self = .manufacturer(code: mfr)
            }
        case ISO15693Manufacturer.st:
            switch icReference ?? b2 {
            case 0x24, 0x25: self = .st25dv04k
            case 0x26, 0x27: self = .st25dv16or64k
            case 0x50 ... 0x53: self = .st25dvKC
            default: self = .manufacturer(code: mfr)
            }
        case ISO15693Manufacturer.ti:
            switch b2 & 0xFE {
            case 0xC0: self = .tagItHFIStandard
            case 0xC4: self = .tagItHFIPro
            default: self = b2 < 0x20 ? .tagItHFIPlus : .manufacturer(code: mfr)
            }
        default:
            self = .manufacturer(code: mfr)
        }
    }

    public var description: String {
        switch self {
        case .icodeSLI: return "ICODE SLI"
        case .icodeSLIX: return "ICODE SLIX"
        case .icodeSLIX2: return "ICODE SLIX2"
        case .ntag5: return "NTAG 5"
        case .icodeSLIS: return "ICODE SLI-S"
        case .icodeSLIXS: return "ICODE SLIX-S"
        case .icodeSLIL: return "ICODE SLI-L"
        case .icodeSLIXL: return "ICODE SLIX-L"
        case .st25dv04k: return "ST25DV04K"
        case .st25dv16or64k: return "ST25DV16K/64K"
        case .st25dvKC: return "ST25DVxxKC"
        case .tagItHFIPlus: return "Tag-it HF-I Plus"
        case .tagItHFIStandard: return "Tag-it HF-I Standard"
        case .tagItHFIPro: return "Tag-it HF-I Pro"
        case let .manufacturer(code):
            return ISO15693Manufacturer.name(code).map { "ISO 15693 tag (\($0))" } ?? "ISO 15693 tag"
        case .unknown: return "ISO 15693 tag"
        }
    }

    /// The chip is named (not only its manufacturer).
    public var isIdentified: Bool {
        switch self {
        case .manufacturer, .unknown: return false
        default: return true
        }
    }

    /// TI Tag-it HF-I Standard and Pro answer no Get System Info: 8 blocks of 4 bytes.
    public var assumedLayout: (blockSize: Int, blockCount: Int)? {
        switch self {
        case .tagItHFIStandard, .tagItHFIPro: return (4, 8)
        default: return nil
        }
    }
}
