/// Why a command APDU could not be built or parsed (ISO/IEC 7816-4 §5.1).
///
/// Kept apart from `TagError` because these are caller mistakes or malformed input bytes,
/// not something a tag answered. Core NFC maps them to `readerErrorInvalidParameterLength` (4).
public enum APDUError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Le must be nil (no response data expected) or 1...65536.
    case expectedLengthOutOfRange(Int)
    /// The command data field holds at most 65535 bytes (Lc, extended form).
    case dataTooLong(Int)
    /// The bytes are not one of the four ISO 7816-4 cases.
    case malformed(String)

    public var description: String {
        switch self {
        case let .expectedLengthOutOfRange(le): return "expected response length \(le) is outside 1...65536"
        case let .dataTooLong(n): return "command data of \(n) bytes exceeds 65535"
        case let .malformed(why): return "malformed command APDU: \(why)"
        }
    }
}
