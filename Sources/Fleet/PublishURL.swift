import Foundation

/// A broker and topic to publish records to: `mqtt://[user[:pass]@]HOST[:PORT]/TOPIC` or `mqtts://…`
/// (TLS). The topic may be empty when the caller builds it from a site and station.
public struct PublishURL: Equatable, Sendable, CustomStringConvertible {
    public var secure: Bool
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    /// The percent-decoded path without its leading "/"; "" when the URL has none.
    public var topic: String

    public init(secure: Bool, host: String, port: Int, username: String? = nil, password: String? = nil, topic: String) {
        self.secure = secure
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.topic = topic
    }

    /// Longest URL accepted (bytes).
    public static let maxLength = 4096

    /// The MQTT defaults: 1883, 8883 for TLS (IANA).
    public static func defaultPort(secure: Bool) -> Int { secure ? 8883 : 1883 }

    /// Parses and checks a URL. The topic is checked with `Topic.validate` when present.
    ///
    /// User name and password are percent-decoded (`%2F` is `/`). A password may also hold a raw
    /// `@` or `:` (the host starts after the last `@` of the authority, the password after the
    /// first `:`), and a raw `/` (base64 secrets) when the URL cannot be read otherwise: the
    /// authority then ends at the first `@` followed by a valid host and port. A URL that reads
    /// two ways (`mqtt://u:1883/x@h/t`) is refused: percent-encode the `/` or the `@`.
    /// - Throws: `PublishURLError` (never with the password in it).
    public static func parse(_ text: String, requireTopic: Bool = true) throws -> PublishURL {
        guard text.utf8.count <= maxLength else { throw PublishURLError.tooLong(text.utf8.count) }
        guard let schemeEnd = text.range(of: "://") else {
            throw PublishURLError.unknownScheme(String(text.prefix(while: { $0 != ":" && $0 != "/" }).prefix(20)))
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        let secure: Bool
        switch scheme {
        case "mqtt", "tcp": secure = false
        case "mqtts", "ssl": secure = true
        default: throw PublishURLError.unknownScheme(String(scheme.prefix(20)))
        }
        let (authority, rest) = try splitAuthority(Substring(text[schemeEnd.upperBound...]))
        let (username, password, host, portText) = try parseAuthority(authority)
        var port = defaultPort(secure: secure)
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portText), (1...65535).contains(value) else {
                throw PublishURLError.badPort(String(portText.prefix(20)))
            }
            port = value
        }
        if rest.contains("?") { throw PublishURLError.badTopic(String(rest.prefix(80)), reason: "query strings are not supported") }
        let topic = try decode(rest, part: "topic")
        if topic.isEmpty {
            if requireTopic { throw PublishURLError.missingTopic }
        } else {
            try Topic.validate(topic)
        }
        return PublishURL(secure: secure, host: host, port: port, username: username, password: password, topic: topic)
    }

    /// Where the authority ends: at the first "/", unless that leaves a URL that cannot be right
    /// and a raw "/" in the password explains it.
    static func splitAuthority(_ rest: Substring) throws -> (authority: Substring, path: Substring) {
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let primary = rest[..<slash]
        let path = slash < rest.endIndex ? rest[rest.index(after: slash)...] : ""
        // The other reading: userinfo with a raw "/" up to an "@" that a host[:port] follows.
        var alternative: (Substring, Substring)?
        var search = path.startIndex
        while alternative == nil, let at = path[search...].firstIndex(of: "@") {
            let userinfo = rest[..<at]
            let hostEnd = path[path.index(after: at)...].firstIndex(of: "/") ?? path.endIndex
            let hostPort = path[path.index(after: at)..<hostEnd]
            if let colon = userinfo.firstIndex(of: ":"), !userinfo[..<colon].contains("/"),
               (try? parseAuthority(hostPort)) != nil {
                alternative = (rest[..<hostEnd], hostEnd < path.endIndex ? path[path.index(after: hostEnd)...] : "")
            }
            search = path.index(after: at)
        }
        let primaryParses = (try? parseAuthority(primary)) != nil
        switch (primaryParses, alternative) {
        case (true, nil):
            return (primary, path)
        case (true, .some):
            if primary.contains("@") { return (primary, path) }
            throw PublishURLError.ambiguous
        case (false, let .some(found)):
            return found
        case (false, nil):
            if rest.contains("@") {
                // Whatever is wrong, the error must not show a piece of the password.
                _ = try parseAuthority(primary.contains("@") ? primary : "x")
                throw PublishURLError.badCharacters("user name, password, host or port (percent-encode '/', '@' and ':' in a password)")
            }
            _ = try parseAuthority(primary)
            return (primary, path)
        }
    }

    /// `[user[:password]@]host[:port]`, decoded; the port text unchecked.
    static func parseAuthority(_ authority: Substring) throws -> (String?, String?, String, Substring?) {
        var hostPort = authority
        var username: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if let colon = userinfo.firstIndex(of: ":") {
                username = try decode(userinfo[..<colon], part: "user name")
                password = try decode(userinfo[userinfo.index(after: colon)...], part: "password")
            } else {
                username = try decode(userinfo, part: "user name")
            }
            if username == "" { username = nil }
        }
        let host: String
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw PublishURLError.missingHost }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw PublishURLError.badPort("…") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw PublishURLError.missingHost
            }
        } else {
            if let colon = hostPort.firstIndex(of: ":") {
                host = String(hostPort[..<colon])
                portText = hostPort[hostPort.index(after: colon)...]
            } else {
                host = String(hostPort)
            }
            guard !host.isEmpty else { throw PublishURLError.missingHost }
            guard host.utf8.count <= 253, host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F }) else {
                throw PublishURLError.badCharacters("host")
            }
        }
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portText), (1...65535).contains(value) else {
                // Only digits are shown: anything else may be a piece of a mistyped password.
                throw PublishURLError.badPort(portText.allSatisfy({ $0.isASCII && $0.isNumber }) ? String(portText.prefix(20)) : "…")
            }
        }
        return (username, password, host, portText)
    }

    /// The URL with the password replaced by "***": safe for logs and status output.
    public var redacted: String {
        var text = secure ? "mqtts://" : "mqtt://"
        if let username {
            text += Self.encode(username)
            if password != nil { text += ":***" }
            text += "@"
        } else if password != nil {
            text += ":***@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)"
        if !topic.isEmpty { text += "/" + topic }
        return text
    }

    public var description: String { redacted }

    /// Percent-decoding (RFC 3986 §2.1); refuses bad escapes, NUL and other control characters.
    static func decode(_ text: Substring, part: String) throws -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: "%") {
                let h1 = utf8.index(after: i)
                guard h1 < utf8.endIndex else { throw PublishURLError.badCharacters(part) }
                let h2 = utf8.index(after: h1)
                guard h2 < utf8.endIndex, let hi = hexValue(utf8[h1]), let lo = hexValue(utf8[h2]) else {
                    throw PublishURLError.badCharacters(part)
                }
                bytes.append(hi << 4 | lo)
                i = utf8.index(after: h2)
            } else {
                bytes.append(byte)
                i = utf8.index(after: i)
            }
        }
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }),
              let decoded = String(validating: bytes, as: UTF8.self) else {
            throw PublishURLError.badCharacters(part)
        }
        return decoded
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    private static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-._~".contains(c) { out.append(c) } else { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2) }
        }
        return out
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
