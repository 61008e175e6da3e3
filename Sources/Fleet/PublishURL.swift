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

    /// The MQTT defaults: 1883, 8883 for TLS (IANA).
    public static func defaultPort(secure: Bool) -> Int { secure ? 8883 : 1883 }

    /// Parses and checks a URL. The topic is checked with `Topic.validate` when present.
    /// - Throws: `PublishURLError` (never with the password in it).
    public static func parse(_ text: String, requireTopic: Bool = true) throws -> PublishURL {
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
        var rest = Substring(text[schemeEnd.upperBound...])
        let authority: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            rest = rest[rest.index(after: slash)...]
        } else {
            authority = rest
            rest = ""
        }
        // userinfo: everything before the LAST "@" (a password may contain "@" only escaped, but be lenient).
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
                guard after.hasPrefix(":") else { throw PublishURLError.badPort(String(after.prefix(20))) }
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
            guard host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F }) else {
                throw PublishURLError.badCharacters("host")
            }
        }
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
