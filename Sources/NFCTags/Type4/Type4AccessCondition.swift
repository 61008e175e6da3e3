import NDEF

/// A read or write access byte of a Type 4 capability container (docs/tags-and-readers.md §2).
public enum Type4AccessCondition: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// `00`: access granted without security.
    case granted
    /// `80`–`FE`: proprietary; ST's library (and this one) take it as granted.
    case proprietary(UInt8)
    /// `FF`: no access (a read-only tag has write access `FF`).
    case denied
    /// `01`–`7F`: reserved for future use; taken as denied.
    case reserved(UInt8)

    public init(byte: UInt8) {
        switch byte {
        case 0x00: self = .granted
        case 0xFF: self = .denied
        case 0x80...0xFE: self = .proprietary(byte)
        default: self = .reserved(byte)
        }
    }

    public var byte: UInt8 {
        switch self {
        case .granted: return 0x00
        case .denied: return 0xFF
        case let .proprietary(b), let .reserved(b): return b
        }
    }

    /// True for `00` and `80`–`FE`.
    public var isGranted: Bool {
        switch self {
        case .granted, .proprietary: return true
        case .denied, .reserved: return false
        }
    }

    public var description: String {
        [byte].hexString + "h"
    }
}
