import NDEF

/// Why bytes are not a `~HS` host status reply. Lines are numbered 1 to 3.
public enum HostStatusError: Error, Hashable, Sendable {
    /// Outside a frame, a byte other than CR or LF where STX (0x02) should start this line.
    case missingSTX(line: Int, found: UInt8)
    /// Inside this line's frame, STX, CR or LF came before ETX (0x03).
    case missingETX(line: Int, found: UInt8)
    /// Inside a frame, a byte that is not printable ASCII.
    case invalidByte(line: Int, byte: UInt8)
    /// The reply grew past ``HostStatusParser/maxReplyLength`` bytes without completing.
    case replyTooLong(limit: Int)
    /// A line with the wrong number of comma-separated fields.
    case wrongFieldCount(line: Int, expected: Int, found: Int)
    /// A field whose text is not what the ZPL guide describes.
    case invalidField(line: Int, field: HostStatusField, value: String, reason: FieldProblem)
    /// The bytes end before the third line's ETX (one-shot parsing only).
    case truncated(line: Int)
    /// Bytes other than CR/LF after the reply's last ETX (one-shot parsing only).
    case trailingBytes(count: Int)

    public enum FieldProblem: Hashable, Sendable {
        case empty
        /// More characters than the field's width.
        case tooLong(width: Int)
        case notDigits
        /// A flag that is not `0` or `1`.
        case notFlag
        /// A print mode that is not one ASCII letter or digit.
        case notPrintMode
    }
}

extension HostStatusError: CustomStringConvertible {
    public var description: String {
        func hex(_ b: UInt8) -> String { "0x" + [b].hexString }
        switch self {
        case let .missingSTX(line, found):
            return "~HS line \(line): expected STX, found \(hex(found))"
        case let .missingETX(line, found):
            return "~HS line \(line): \(hex(found)) before ETX"
        case let .invalidByte(line, byte):
            return "~HS line \(line): byte \(hex(byte)) is not printable ASCII"
        case let .replyTooLong(limit):
            return "~HS reply longer than \(limit) bytes"
        case let .wrongFieldCount(line, expected, found):
            return "~HS line \(line): \(found) fields, expected \(expected)"
        case let .invalidField(line, field, value, reason):
            let why: String
            switch reason {
            case .empty: why = "is empty"
            case let .tooLong(width): why = "is longer than \(width) characters"
            case .notDigits: why = "is not a number"
            case .notFlag: why = "is not 0 or 1"
            case .notPrintMode: why = "is not a print mode code"
            }
            return "~HS line \(line), \(field.rawValue) \"\(value)\" \(why)"
        case let .truncated(line):
            return "~HS reply ends inside line \(line)"
        case let .trailingBytes(count):
            return "~HS reply followed by \(count) unexpected bytes"
        }
    }
}
