/// The two status flags of a FeliCa read/write/… answer (docs/tags-and-readers.md §9.2):
/// flag 1 `00` success, `FF` an error not tied to one block, else the failing block-list entry;
/// flag 2 names the error (`A8` illegal block number, `A6` illegal service code, …).
public struct FeliCaStatusFlags: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var flag1: UInt8
    public var flag2: UInt8

    public init(_ flag1: UInt8, _ flag2: UInt8) {
        self.flag1 = flag1
        self.flag2 = flag2
    }

    public static let success = FeliCaStatusFlags(0x00, 0x00)

    public var isSuccess: Bool { flag1 == 0x00 }

    /// Flag 2's meaning, where the FeliCa documentation names it.
    public var meaning: String? {
        switch flag2 {
        case 0x01: return "purse underflow or overflow"
        case 0x02: return "cashback exceeded"
        case 0x70: return "memory error"
        case 0x71: return "memory write-count warning"
        case 0xA1: return "illegal number of services"
        case 0xA2: return "illegal number of blocks"
        case 0xA3: return "block list refers to a missing service"
        case 0xA4: return "illegal service type"
        case 0xA5: return "access not allowed"
        case 0xA6: return "illegal service code"
        case 0xA7: return "illegal block list access mode"
        case 0xA8: return "illegal block number"
        case 0xA9: return "write failure"
        case 0xAA: return "key change failure"
        case 0xAB: return "package parity or MAC error"
        case 0xAC: return "illegal parameter"
        case 0xAD: return "service already exists"
        case 0xAE: return "illegal system code"
        case 0xAF: return "too many cyclic writes"
        case 0xB1: return "MAC authentication required"
        case 0xB2: return "write-with-MAC verification failed"
        default: return nil
        }
    }

    public var description: String {
        let flags = [flag1, flag2].hexString(separator: " ")
        return meaning.map { "status flags \(flags) (\($0))" } ?? "status flags \(flags)"
    }
}
