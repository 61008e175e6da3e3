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

    /// Parses and checks a URL with Foundation's `URLComponents` (RFC 3986). The topic is checked
    /// with `Topic.validate` when present.
    ///
    /// User name and password are percent-decoded (`%40` is `@`, `%2F` is `/`, `%3A` is `:`); a raw
    /// `@`, `/` or `:` in them is refused with an error saying how to encode it.
    /// - Throws: `PublishURLError` (never with any part of the password in it).
    public static func parse(_ text: String, requireTopic: Bool = true) throws -> PublishURL {
        guard text.utf8.count <= maxLength else { throw PublishURLError.tooLong(text.utf8.count) }
        guard let schemeEnd = text.range(of: "://") else {
            throw PublishURLError.unknownScheme(String(text.prefix(while: { $0 != ":" && $0 != "/" }).prefix(20)))
        }
        let secure: Bool
        switch text[..<schemeEnd.lowerBound].lowercased() {
        case "mqtt", "tcp": secure = false
        case "mqtts", "ssl": secure = true
        case let scheme: throw PublishURLError.unknownScheme(String(scheme.prefix(20)))
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix(while: { !"/?#".contains($0) })
        let userinfo = authority.lastIndex(of: "@").map { authority[..<$0] }
        if let userinfo, userinfo.contains("@") || userinfo.split(separator: ":", omittingEmptySubsequences: false).count > 2 {
            throw PublishURLError.unencodedUserinfo
        }
        if userinfo == nil, authority.contains(":"), rest.dropFirst(authority.count).contains("@") {
            throw PublishURLError.ambiguous  // `user:pass/word@host`, or a port and an '@' in the topic
        }
        guard let components = URLComponents(string: text, encodingInvalidCharacters: false) else {
            throw diagnose(authority: authority, userinfo: userinfo)
        }
        let username = try components.percentEncodedUser.map { try decode($0, part: "user name") }
        let password = try components.percentEncodedPassword.map { try decode($0, part: "password") }
        let host = try checkedHost(components.percentEncodedHost ?? "")
        var port = defaultPort(secure: secure)
        if let value = components.port {
            guard (1...65535).contains(value) else { throw PublishURLError.badPort(String(value)) }
            port = value
        } else if authority.hasSuffix(":") {
            throw PublishURLError.badPort("")
        }
        let path = String(components.percentEncodedPath.drop(while: { $0 == "/" }))
        if components.percentEncodedQuery != nil {
            throw PublishURLError.badTopic(String(path.prefix(80)), reason: "query strings are not supported")
        }
        if components.percentEncodedFragment != nil {
            throw PublishURLError.badTopic(String(path.prefix(80)) + "#", reason: "'+' and '#' are subscription wildcards, not allowed when publishing")
        }
        let topic = try decode(path, part: "topic")
        if topic.isEmpty {
            if requireTopic { throw PublishURLError.missingTopic }
        } else {
            try Topic.validate(topic)
        }
        return PublishURL(secure: secure, host: host, port: port, username: username == "" ? nil : username,
                          password: password, topic: topic)
    }

    /// A name of letters, digits, '-', '.' and '_', or an IP literal in brackets (returned without them).
    static func checkedHost(_ host: String) throws -> String {
        if host.hasPrefix("[") {
            let inner = host.dropFirst().dropLast()
            guard host.hasSuffix("]"), !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw PublishURLError.missingHost
            }
            return String(inner)
        }
        guard !host.isEmpty else { throw PublishURLError.missingHost }
        guard host.utf8.count <= 253, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }) else {
            throw PublishURLError.badCharacters("host")
        }
        return host
    }

    /// Why `URLComponents` refused the URL, naming the part without showing a piece of the password.
    static func diagnose(authority: Substring, userinfo: Substring?) -> PublishURLError {
        if let userinfo, URLComponents(string: "mqtt://\(userinfo)@h/", encodingInvalidCharacters: false) == nil {
            return .badCharacters("user name or password (percent-encode '%' as %25)")
        }
        let hostPort = userinfo.map { authority[authority.index(after: $0.endIndex)...] } ?? authority
        let portStart = hostPort.lastIndex(of: ":").flatMap { colon in hostPort[colon...].contains("]") ? nil : colon }
        if let portStart {
            let portText = hostPort[hostPort.index(after: portStart)...]
            // Only digits are shown: anything else may be a piece of a mistyped password.
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), portText.count <= 5 else {
                return .badPort(portText.allSatisfy({ $0.isASCII && $0.isNumber }) ? String(portText.prefix(20)) : "…")
            }
        }
        if URLComponents(string: "mqtt://\(hostPort.prefix(upTo: portStart ?? hostPort.endIndex))/", encodingInvalidCharacters: false) == nil {
            return .badCharacters("host")
        }
        return .badCharacters("topic")
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

    /// Percent-decoded (RFC 3986 §2.1); refuses bytes that are not UTF-8, NUL and other control characters.
    static func decode(_ encoded: String, part: String) throws -> String {
        guard let decoded = encoded.removingPercentEncoding,
              !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw PublishURLError.badCharacters(part)
        }
        return decoded
    }

    /// RFC 3986 §2.3.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
