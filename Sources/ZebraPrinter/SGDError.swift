/// Why an SGD command could not be built or its reply read.
public enum SGDError: Error, Hashable, Sendable {
    /// A setting name that is empty, longer than ``SGD/maxLength``, or holds a character outside
    /// visible ASCII or a `"` (it would end the quoted name and inject a command).
    case invalidName(String)
    /// A value longer than ``SGD/maxLength`` or holding a control character, non-ASCII or a `"`.
    case invalidValue(String)
    /// The reply has not reached its closing `"` yet (or is empty): wait for more bytes.
    case incompleteReply
    /// The reply is not one double-quoted value, optionally surrounded by CR, LF or spaces.
    case malformedReply
    /// The quoted value is not UTF-8 or holds control characters.
    case invalidReplyValue
    /// The printer answered `"?"`: it does not know the setting.
    case unknownSetting
    /// The reply is longer than ``SGD/maxReplyLength`` bytes.
    case replyTooLong(limit: Int)
}

extension SGDError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .invalidName(n): return "SGD name \(n.debugDescription) is not allowed"
        case let .invalidValue(v): return "SGD value \(v.debugDescription) is not allowed"
        case .incompleteReply: return "SGD reply is incomplete"
        case .malformedReply: return "SGD reply is not a quoted value"
        case .invalidReplyValue: return "SGD reply value holds control characters or bad UTF-8"
        case .unknownSetting: return "printer does not know this SGD setting"
        case let .replyTooLong(limit): return "SGD reply longer than \(limit) bytes"
        }
    }
}
