/// A URI split by hand over its UTF-8 bytes and checked to be a Zebra tag URL:
/// `http[s]://[www.]zebra.com[:80|:443]/apps/r/nfc?<query>` (docs/zebra.md §1).
///
/// Hand-written on purpose: whether a URI is Zebra's must not depend on a general URL parser's
/// leniency (backslashes as slashes, user-info, IDNA, dot-segment removal). Anything unusual
/// is rejected, not normalised.
struct ZebraURI {
    /// The raw query after `?` (still percent-encoded); nil when there is no `?`.
    let rawQuery: ArraySlice<UInt8>?

    static let acceptedHosts: [[UInt8]] = [Array("zebra.com".utf8), Array("www.zebra.com".utf8)]
    static let path: [UInt8] = Array("/apps/r/nfc".utf8)

    /// - Throws: ``ZebraTagError`` for the first problem found, checked in this order:
    ///   length, raw characters, scheme, authority (user-info, port, host), path, fragment.
    init(parsing uri: String) throws {
        let length = uri.utf8.count
        guard length <= ZebraTag.maxURILength else {
            throw ZebraTagError.uriTooLong(length: length, limit: ZebraTag.maxURILength)
        }
        let bytes = Array(uri.utf8)
        for (offset, b) in bytes.enumerated() {
            if b < 0x20 || b == 0x7F { throw ZebraTagError.controlCharacter(offset: offset) }
            guard Self.isURIByte(b) else { throw ZebraTagError.invalidCharacter(byte: b, offset: offset) }
        }

        // scheme ":" — RFC 3986 §3.1; compared case-insensitively.
        guard let colon = bytes.firstIndex(where: { $0 == UInt8(ascii: ":") || Self.isDelimiter($0) }),
              bytes[colon] == UInt8(ascii: ":"), colon > 0 else {
            throw ZebraTagError.missingScheme
        }
        let scheme = bytes[..<colon]
        let schemeLower = Array(scheme.map(Self.lowercased))
        let defaultPort: [UInt8]
        switch schemeLower {
        case Array("http".utf8): defaultPort = Array("80".utf8)
        case Array("https".utf8): defaultPort = Array("443".utf8)
        default: throw ZebraTagError.unsupportedScheme(String(decoding: scheme, as: UTF8.self))
        }

        // "//" authority — RFC 3986 §3.2; ends at the first "/", "?" or "#".
        var i = colon + 1
        guard bytes.count >= i + 2, bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "/") else {
            throw ZebraTagError.missingAuthority
        }
        i += 2
        let authorityStart = i
        while i < bytes.count, !Self.isDelimiter(bytes[i]) { i += 1 }
        let authority = bytes[authorityStart..<i]
        if authority.contains(UInt8(ascii: "@")) {
            throw ZebraTagError.userInfoNotAllowed(authority: String(decoding: authority, as: UTF8.self))
        }
        // An IP literal ("[::1]") is never Zebra's; said so before its colons look like a port.
        if authority.first == UInt8(ascii: "[") {
            throw ZebraTagError.hostNotZebra(String(decoding: authority, as: UTF8.self))
        }
        var host = authority
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            host = authority[..<portColon]
            let port = authority[(portColon + 1)...]
            guard Array(port) == defaultPort else {
                throw ZebraTagError.unsupportedPort(String(decoding: port, as: UTF8.self))
            }
        }
        // Exact match after ASCII case folding: "zebra.com." or "zebra.com.evil.example" fail here.
        guard Self.acceptedHosts.contains(host.map(Self.lowercased)) else {
            throw ZebraTagError.hostNotZebra(String(decoding: host, as: UTF8.self))
        }

        // path — exact, byte for byte.
        let pathStart = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "?"), bytes[i] != UInt8(ascii: "#") { i += 1 }
        let path = bytes[pathStart..<i]
        guard Array(path) == Self.path else {
            throw ZebraTagError.pathNotZebra(String(decoding: path, as: UTF8.self))
        }

        // A "#" anywhere after the path (RFC 3986 §3.5) is a fragment: rejected.
        if bytes[i...].contains(UInt8(ascii: "#")) { throw ZebraTagError.fragmentNotAllowed }
        if i < bytes.count {  // bytes[i] == "?"
            rawQuery = bytes[(i + 1)...]
        } else {
            rawQuery = nil
        }
    }

    /// `/`, `?`, `#`: the bytes that end a scheme or an authority.
    static func isDelimiter(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#")
    }

    static func lowercased(_ b: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) ? b | 0x20 : b
    }

    /// RFC 3986 unreserved, reserved (gen-delims and sub-delims) and `%`.
    static func isURIByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),      // unreserved
             UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"),      // gen-delims
             UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "@"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),      // sub-delims
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }
}
