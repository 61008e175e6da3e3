/// The print mode reported in field `r` of a `~HS` reply's second line (docs/zebra.md §3).
public enum PrintMode: Hashable, Sendable {
    case rewind              // 0
    case peelOff             // 1
    case tearOff             // 2
    case cutter              // 3
    case applicator          // 4
    case delayedCut          // 5
    case linerlessPeel       // 6
    case linerlessRewind     // 7
    case partialCutter       // 8
    case rfid                // 9
    case kiosk               // K
    /// A code this project does not know (an ASCII letter or digit), kept as sent.
    case unknown(Character)

    /// Maps a `~HS` print mode code; unknown codes are kept in ``unknown(_:)``.
    public init(code: Character) {
        switch code {
        case "0": self = .rewind
        case "1": self = .peelOff
        case "2": self = .tearOff
        case "3": self = .cutter
        case "4": self = .applicator
        case "5": self = .delayedCut
        case "6": self = .linerlessPeel
        case "7": self = .linerlessRewind
        case "8": self = .partialCutter
        case "9": self = .rfid
        case "K": self = .kiosk
        default: self = .unknown(code)
        }
    }

    /// The code as the printer sends it.
    public var code: Character {
        switch self {
        case .rewind: return "0"
        case .peelOff: return "1"
        case .tearOff: return "2"
        case .cutter: return "3"
        case .applicator: return "4"
        case .delayedCut: return "5"
        case .linerlessPeel: return "6"
        case .linerlessRewind: return "7"
        case .partialCutter: return "8"
        case .rfid: return "9"
        case .kiosk: return "K"
        case let .unknown(c): return c
        }
    }

    /// The 11 modes of the ZPL manual, in code order.
    public static let known: [PrintMode] = [
        .rewind, .peelOff, .tearOff, .cutter, .applicator, .delayedCut,
        .linerlessPeel, .linerlessRewind, .partialCutter, .rfid, .kiosk,
    ]
}
