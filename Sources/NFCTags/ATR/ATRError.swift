/// Why bytes are not a well-formed Answer To Reset (ISO/IEC 7816-3 §8.2).
public enum ATRError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// More than 33 bytes (TS + 32), the most an ATR may have.
    case tooLong(Int)
    /// TS is neither `3B` (direct convention) nor `3F` (inverse convention).
    case invalidInitialCharacter(UInt8)
    /// A byte announced by T0 or a TDi (named, e.g. "TB2", "historical bytes") is missing.
    case truncated(String)
    /// A protocol other than T=0 is indicated, so TCK must be present, and it is not.
    case missingCheckByte
    /// TCK does not make the XOR of T0...TCK zero. `expected` is the TCK that would.
    case checksumMismatch(expected: UInt8, actual: UInt8)
    /// Bytes after the last one the structure announces.
    case unexpectedTrailingBytes(Int)

    public var description: String {
        switch self {
        case .empty: return "empty ATR"
        case let .tooLong(n): return "ATR of \(n) bytes exceeds 33"
        case let .invalidInitialCharacter(ts): return "ATR initial character \(String(ts, radix: 16, uppercase: true))h is not 3Bh or 3Fh"
        case let .truncated(what): return "ATR truncated: \(what) missing"
        case .missingCheckByte: return "ATR lacks its check byte TCK"
        case let .checksumMismatch(expected, actual):
            return "ATR check byte is \(String(actual, radix: 16, uppercase: true))h, expected \(String(expected, radix: 16, uppercase: true))h"
        case let .unexpectedTrailingBytes(n): return "ATR has \(n) unexpected trailing byte(s)"
        }
    }
}
