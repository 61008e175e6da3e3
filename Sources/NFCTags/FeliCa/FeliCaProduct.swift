/// The FeliCa chip a card is, from PMm byte 1, the IC code (docs/tags-and-readers.md §9.4).
public enum FeliCaProduct: Equatable, Hashable, Sendable, CustomStringConvertible {
    case standard(String)
    case mobile(String)
    case lite
    case liteS
    case link
    case plug
    case unknown(UInt8)

    public init(pmm: [UInt8]) {
        guard pmm.count >= 2 else { self = .unknown(0); return }
        let ic = pmm[1]
        switch ic {
        case 0x00: self = .standard("RC-S830")
        case 0x01: self = .standard("RC-S915")
        case 0x02: self = .standard("RC-S919")
        case 0x08: self = .standard("RC-S952")
        case 0x09: self = .standard("RC-S953")
        case 0x0B: self = .standard("RC-S9X4 (Japan transit IC)")
        case 0x0C: self = .standard("RC-S954")
        case 0x0D: self = .standard("RC-S960")
        case 0x20: self = .standard("RC-S962")
        case 0x32: self = .standard("RC-SA00/1")
        case 0x35: self = .standard("RC-SA00/2")
        case 0x06, 0x07: self = .mobile("1.0")
        case 0x10...0x13: self = .mobile("2.0")
        case 0x14...0x1F: self = .mobile("3.0")
        case 0xF0: self = .lite
        case 0xF1: self = .liteS
        case 0xF2: self = .link
        case 0xE0, 0xE1: self = .plug
        default: self = .unknown(ic)
        }
    }

    /// FeliCa Lite and Lite-S (and FeliCa Link in Lite-S mode) share the Lite memory map.
    public var hasLiteMemoryMap: Bool { self == .lite || self == .liteS || self == .link }

    public var description: String {
        switch self {
        case let .standard(chip): return "FeliCa Standard \(chip)"
        case let .mobile(version): return "Mobile FeliCa \(version)"
        case .lite: return "FeliCa Lite RC-S965"
        case .liteS: return "FeliCa Lite-S RC-S966"
        case .link: return "FeliCa Link RC-S730 (Lite-S mode)"
        case .plug: return "FeliCa Plug"
        case let .unknown(ic): return "FeliCa (IC code \([ic].hexString))"
        }
    }
}
