import SafeText
import NDEF

/// Why `decode` could not get its input bytes.
package enum DecodeInputError: Error, CustomStringConvertible {
    case invalidHex
    case unreadableFile(String)
    case noInput
    case tooLarge(String, Int)

    package var description: String {
        switch self {
        case .invalidHex: return "the argument is not hex (pairs of 0-9 A-F, optional spaces or colons)"
        case let .unreadableFile(path): return "cannot read \(SafeText.escaped(path))"
        case .noInput: return "no input: give hex, --file, or NDEF bytes on stdin"
        case let .tooLarge(source, limit): return "\(SafeText.escaped(source)) is larger than \(limit) bytes"
        }
    }
}
