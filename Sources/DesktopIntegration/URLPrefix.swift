// `X-NFC-URL-Prefixes`: the URL prefixes an application claims (the desktop counterpart of
// iOS associated domains). Matching is a prefix match that compares scheme and host without
// case and only ends on a boundary, so `https://example.com` does not claim
// `https://example.com.evil.test/` nor `https://example.com@evil.test/`.

public enum URLPrefix {
    /// The desktop-entry key listing an application's prefixes (a `;`-separated list).
    public static let desktopEntryKey = "X-NFC-URL-Prefixes"

    /// Whether `prefix` claims `url`; nil when not, else the length of the prefix (longer wins).
    public static func match(_ prefix: String, _ url: String) -> Int? {
        guard !prefix.isEmpty, let p = split(prefix), let u = split(url) else { return nil }
        guard p.scheme == u.scheme else { return nil }
        guard let pAuthority = p.authority else {
            // No authority (`mailto:`, `tel:`): a plain prefix on the rest.
            return u.rest.hasPrefix(p.rest) ? prefix.count : nil
        }
        guard let uAuthority = u.authority, pAuthority == uAuthority else { return nil }
        guard u.rest.hasPrefix(p.rest) else { return nil }
        return boundary(after: p.rest, in: u.rest, allowAny: p.rest.hasSuffix("/")) ? prefix.count : nil
    }

    /// The longest of `prefixes` that claims `url` (its length), nil when none does.
    public static func longestMatch(_ prefixes: [String], _ url: String) -> Int? {
        prefixes.compactMap { match($0, url) }.max()
    }

    /// The URL after the prefix must start a new path segment, query or fragment (or be empty),
    /// unless the prefix itself ends with a separator.
    private static func boundary(after matched: String, in rest: String, allowAny: Bool) -> Bool {
        if allowAny || matched.count == rest.count { return true }
        if let last = matched.last, "/?#&=".contains(last) { return true }
        let next = rest[rest.index(rest.startIndex, offsetBy: matched.count)]
        return "/?#".contains(next)
    }

    /// scheme (lowercased), authority (host lowercased; userinfo kept as is), the rest.
    static func split(_ url: String) -> (scheme: String, authority: String?, rest: String)? {
        guard let scheme = URLSchemePolicy.scheme(of: url) else { return nil }
        let afterScheme = url.dropFirst(scheme.count + 1)
        guard afterScheme.hasPrefix("//") else { return (scheme, nil, String(afterScheme)) }
        let authorityAndRest = afterScheme.dropFirst(2)
        let end = authorityAndRest.firstIndex(where: { "/?#".contains($0) }) ?? authorityAndRest.endIndex
        let authority = authorityAndRest[..<end]
        return (scheme, normalizedAuthority(authority), String(authorityAndRest[end...]))
    }

    private static func normalizedAuthority(_ authority: Substring) -> String {
        if let at = authority.lastIndex(of: "@") {
            return String(authority[...at]) + authority[authority.index(after: at)...].lowercased()
        }
        return authority.lowercased()
    }
}
