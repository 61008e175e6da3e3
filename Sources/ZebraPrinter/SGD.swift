/// Set-Get-Do commands (docs/zebra.md §3): `! U1 getvar "name"` and `! U1 setvar "name" "value"`,
/// each ending in CR LF; the printer replies with the value in double quotes.
public enum SGD {
    /// Longest name or value accepted when building a command.
    public static let maxLength = 256
    /// Longest reply accepted by ``parseValue(_:)``.
    public static let maxReplyLength = 1024

    /// `! U1 getvar "name"\r\n`.
    /// - Throws: ``SGDError/invalidName(_:)`` unless the name is 1…``maxLength`` visible ASCII without `"`.
    public static func getvar(_ name: String) throws -> [UInt8] {
        try checkName(name)
        return Array("! U1 getvar \"\(name)\"\r\n".utf8)
    }

    /// `! U1 setvar "name" "value"\r\n`.
    /// - Throws: ``SGDError/invalidName(_:)``; ``SGDError/invalidValue(_:)`` unless the value is
    ///   at most ``maxLength`` printable ASCII (space allowed) without `"`.
    public static func setvar(_ name: String, _ value: String) throws -> [UInt8] {
        try checkName(name)
        guard value.utf8.count <= maxLength,
              value.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") }) else {
            throw SGDError.invalidValue(value)
        }
        return Array("! U1 setvar \"\(name)\" \"\(value)\"\r\n".utf8)
    }

    /// The value of a getvar reply such as `"both"` (CR, LF and spaces around it are ignored).
    /// - Throws: ``SGDError/incompleteReply`` before the closing quote (more bytes may come),
    ///   ``SGDError/unknownSetting`` for `"?"`, ``SGDError/malformedReply``,
    ///   ``SGDError/invalidReplyValue``, ``SGDError/replyTooLong(limit:)``.
    public static func parseValue(_ reply: [UInt8]) throws -> String {
        guard reply.count <= maxReplyLength else { throw SGDError.replyTooLong(limit: maxReplyLength) }
        let isSpace: (UInt8) -> Bool = { $0 == 0x0D || $0 == 0x0A || $0 == 0x20 }
        guard let open = reply.firstIndex(where: { !isSpace($0) }) else { throw SGDError.incompleteReply }
        guard reply[open] == UInt8(ascii: "\"") else { throw SGDError.malformedReply }
        guard let close = reply[(open + 1)...].firstIndex(of: UInt8(ascii: "\"")) else {
            throw SGDError.incompleteReply
        }
        guard reply[(close + 1)...].allSatisfy(isSpace) else { throw SGDError.malformedReply }
        guard case let .success(value) = TextCheck.decode(reply[(open + 1)..<close]) else {
            throw SGDError.invalidReplyValue
        }
        if value == "?" { throw SGDError.unknownSetting }
        return value
    }

    private static func checkName(_ name: String) throws {
        guard !name.isEmpty, name.utf8.count <= maxLength,
              name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") }) else {
            throw SGDError.invalidName(name)
        }
    }
}
