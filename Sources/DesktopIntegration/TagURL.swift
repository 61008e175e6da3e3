// The one parser for URLs that come from a tag (docs/desktop-agent.md §2). It accepts RFC 3986's
// grammar and refuses every input on which RFC 3986 and a browser's (WHATWG) parser would read a
// different host, so the host the notification shows is the host that opens:
// - no backslash, no space, no control, format or separator character anywhere (WHATWG turns `\`
//   into `/` for web schemes, which moves the host; bidi and zero-width characters reorder or hide text);
// - a web scheme (`http`, `https`, `ws`, `wss`, `ftp`) must have `//` and a host (WHATWG reads
//   `https:evil.example` and `https:///evil.example` as that host);
// - the host is ASCII letters, digits, `-`, `_` and `.` (no percent-encoding, which WHATWG decodes,
//   no IDN), an IPv4 address in dotted-decimal form only (WHATWG reads `0x7f.1` as 127.0.0.1, so a
//   last label starting with a digit must be a plain dotted quad), or an IPv6 literal;
// - non-ASCII text (RFC 3987's IRIs) only in the path, query and fragment.

/// Why a tag's URL was refused.
public enum TagURLError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(Int)
    case noScheme
    /// A character that no part of a URL may hold here (its Unicode scalar value).
    case forbiddenCharacter(UInt32)
    /// `%` not followed by two hexadecimal digits.
    case badPercentEncoding
    /// A web scheme without `//host`.
    case missingHost
    case badHost(String)
    case badPort(String)

    public var description: String {
        switch self {
        case .empty: return "empty URL"
        case let .tooLong(n): return "URL of \(n) bytes (at most \(TagURL.maximumLength))"
        case .noScheme: return "no scheme"
        case let .forbiddenCharacter(v): return "character U+\(String(v, radix: 16, uppercase: true)) is not allowed in a URL"
        case .badPercentEncoding: return "% not followed by two hexadecimal digits"
        case .missingHost: return "no host"
        case let .badHost(h): return "invalid host \"\(DisplayText.line(h, limit: 80))\""
        case let .badPort(p): return "invalid port \"\(DisplayText.line(p, limit: 20))\""
        }
    }
}

/// A URL from a tag, split into RFC 3986's components (scheme and host lowercased).
public struct TagURL: Sendable, Equatable {
    /// The longest URL accepted (and handed to any program).
    public static let maximumLength = 8192
    /// Schemes a browser parses with WHATWG's "special" rules, with their default ports.
    public static let webSchemes: [String: Int] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// The URL as the tag holds it (what is handed to the application or `xdg-open`).
    public let text: String
    public let scheme: String
    /// The part before `@` in the authority (nil when there is none).
    public let userinfo: String?
    /// nil without an authority (`mailto:`, `tel:`); lowercased.
    public let host: String?
    /// The explicit port (nil when absent or empty).
    public let port: Int?
    /// The path as written (percent-encoding kept).
    public let path: String
    public let query: String?
    public let fragment: String?

    /// - Throws: `TagURLError`.
    public init(_ text: String) throws(TagURLError) {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(text.utf8.count) }
        guard let scheme = URLSchemePolicy.scheme(of: text) else { throw .noScheme }
        self.text = text
        self.scheme = scheme
        let scalars = Array(text.unicodeScalars.dropFirst(scheme.unicodeScalars.count + 1))
        for (i, s) in scalars.enumerated() {
            guard Self.isAllowed(s) else { throw .forbiddenCharacter(s.value) }
            if s == "%" {
                guard i + 2 < scalars.count, scalars[i + 1].properties.isASCIIHexDigit,
                      scalars[i + 2].properties.isASCIIHexDigit else { throw .badPercentEncoding }
            }
        }
        var rest = Substring(String(String.UnicodeScalarView(scalars)))
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        } else {
            query = nil
        }
        if rest.hasPrefix("//") {
            let authorityAndPath = rest.dropFirst(2)
            let slash = authorityAndPath.firstIndex(of: "/") ?? authorityAndPath.endIndex
            let authority = authorityAndPath[..<slash]
            path = String(authorityAndPath[slash...])
            // Characters WHATWG percent-encodes in a path or query have no place in an authority.
            if let bad = authority.unicodeScalars.first(where: { Self.pathOnly.contains($0) }) { throw .forbiddenCharacter(bad.value) }
            var hostAndPort = authority
            if let at = authority.lastIndex(of: "@") {
                userinfo = String(authority[..<at])
                hostAndPort = authority[authority.index(after: at)...]
            } else {
                userinfo = nil
            }
            guard userinfo?.unicodeScalars.allSatisfy(\.isASCII) ?? true else { throw .badHost(String(authority)) }
            let (host, port) = try Self.hostAndPort(hostAndPort)
            if Self.webSchemes[scheme] != nil && host.isEmpty { throw .missingHost }
            self.host = host
            self.port = port
        } else {
            if Self.webSchemes[scheme] != nil { throw .missingHost }
            userinfo = nil
            host = nil
            port = nil
            path = String(rest)
        }
        // Only the path, query and fragment may hold non-ASCII text.
        guard (host ?? "").unicodeScalars.allSatisfy(\.isASCII) else { throw .badHost(host ?? "") }
    }

    /// `host` with a port that is not the scheme's default (`example.com`, `example.com:8443`);
    /// nil without a host.
    public var displayHost: String? {
        guard let host, !host.isEmpty else { return nil }
        guard let port, port != Self.webSchemes[scheme] else { return host }
        return "\(host):\(port)"
    }

    /// The port a connection uses: the explicit one, else the scheme's default.
    public var effectivePort: Int? { port ?? Self.webSchemes[scheme] }

    /// The path for comparisons (RFC 3986 §6.2.2): percent-encoded unreserved characters decoded
    /// (`%2E` is `.`), other escapes in upper case, dot segments removed (§5.2.4), and `/` for an
    /// empty path under an authority.
    public var normalizedPath: String {
        let decoded = Self.decodeUnreserved(path)
        let resolved = Self.removeDotSegments(decoded)
        return host != nil && resolved.isEmpty ? "/" : resolved
    }

    /// The path holds an encoded `/` or `\` (`%2F`, `%5C`): a server that decodes it before
    /// resolving `..` reads other segments than the URL shows.
    public var hasEncodedSeparator: Bool {
        let upper = path.uppercased()
        return upper.contains("%2F") || upper.contains("%5C")
    }

    // MARK: Components

    static func hostAndPort(_ text: Substring) throws(TagURLError) -> (String, Int?) {
        var hostPart = text
        var portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .badHost(String(text)) }
            hostPart = text[...close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badHost(String(text)) }
                portPart = after.dropFirst()
            }
            let inner = hostPart.dropFirst().dropLast()
            guard !inner.isEmpty, inner.contains(":"),
                  inner.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }) else {
                throw .badHost(String(hostPart))
            }
        } else if let colon = text.lastIndex(of: ":") {
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        var port: Int?
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(portPart), n <= 65535 else {
                throw .badPort(String(portPart))
            }
            port = n
        }
        let host = hostPart.lowercased()
        if !host.hasPrefix("[") && !host.isEmpty { try checkRegisteredName(host) }
        return (host, port)
    }

    /// Letters, digits, `-`, `_` and `.`; labels of 1–63 characters, at most 253 in all; a last label
    /// starting with a digit only in a dotted-decimal IPv4 address.
    static func checkRegisteredName(_ host: String) throws(TagURLError) {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        guard !name.isEmpty, name.utf8.count <= 253,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) })
        else { throw .badHost(host) }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 }) else { throw .badHost(host) }
        if let last = labels.last, let first = last.first, first.isNumber {
            guard labels.count == 4, labels.allSatisfy({ label in
                label.allSatisfy(\.isNumber) && (label == "0" || !label.hasPrefix("0")) && (Int(label) ?? 256) <= 255
            }) else { throw .badHost(host) }
        }
    }

    /// Printable ASCII outside RFC 3986 that browsers accept in a path, query or fragment (and
    /// percent-encode there): harmless to the host, so accepted there only.
    static let pathOnly: Set<Unicode.Scalar> = ["\"", "<", ">", "^", "`", "{", "|", "}"]

    /// RFC 3986's characters (unreserved, reserved, `%`), `pathOnly` and, beyond ASCII, letters, marks, numbers,
    /// punctuation and symbols; never a control, format, separator, private-use or unassigned scalar.
    static func isAllowed(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            if s.properties.isAlphabetic || ("0"..."9").contains(s) { return true }
            return "-._~:/?#[]@!$&'()*+,;=%".unicodeScalars.contains(s) || pathOnly.contains(s)
        }
        return DisplayText.isVisible(s) && !s.properties.isWhitespace
    }

    static func decodeUnreserved(_ path: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(path.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "%", i + 2 < scalars.count,
               let byte = UInt8(String(String.UnicodeScalarView([scalars[i + 1], scalars[i + 2]])), radix: 16) {
                let s = Unicode.Scalar(byte)
                if s.properties.isAlphabetic && s.isASCII || ("0"..."9").contains(s) || "-._~".unicodeScalars.contains(s) {
                    out.append(s)
                } else {
                    out.append(contentsOf: "%\(String(String.UnicodeScalarView([scalars[i + 1], scalars[i + 2]])).uppercased())".unicodeScalars)
                }
                i += 3
                continue
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }

    /// RFC 3986 §5.2.4 "Remove Dot Segments".
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []  // each starts with "/" (or is the first relative segment)
        while !input.isEmpty {
            if input.hasPrefix("../") { input = input.dropFirst(3) }
            else if input.hasPrefix("./") { input = input.dropFirst(2) }
            else if input.hasPrefix("/./") { input = input.dropFirst(2) }
            else if input == "/." { input = "/" }
            else if input.hasPrefix("/../") { input = input.dropFirst(3); if !output.isEmpty { output.removeLast() } }
            else if input == "/.." { input = "/"; if !output.isEmpty { output.removeLast() } }
            else if input == "." || input == ".." { input = "" }
            else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
