// `X-NFC-URL-Prefixes`: the URL prefixes an application claims (the desktop counterpart of
// iOS associated domains). Both the prefix and the URL are parsed by `TagURL`, and compared
// component by component (docs/desktop-agent.md §2): scheme, host and port exactly (without case,
// default ports filled in), then the normalised path (`%2E` decoded, dot segments removed, so
// `https://example.com/app/../../admin` is `/admin`) as a prefix that ends on a boundary. So
// `https://example.com` claims neither `https://example.com.evil.test/` nor
// `https://example.com@evil.test/`: a URL with userinfo is claimed by nothing, and neither is a
// path with an encoded `/` or `\` under a prefix narrower than the whole site.

public enum URLPrefix {
    /// The desktop-entry key listing an application's prefixes (a `;`-separated list).
    public static let desktopEntryKey = "X-NFC-URL-Prefixes"

    /// Whether `prefix` claims `url`; nil when not, else the length of the prefix (longer wins).
    public static func match(_ prefix: String, _ url: String) -> Int? {
        guard let p = try? TagURL(prefix), let u = try? TagURL(url) else { return nil }
        return match(p, u) ? prefix.count : nil
    }

    /// Whether the parsed `prefix` claims the parsed `url`.
    public static func match(_ p: TagURL, _ u: TagURL) -> Bool {
        guard p.scheme == u.scheme, p.userinfo == nil, u.userinfo == nil else { return false }
        guard let pHost = p.host else {
            // No authority (`mailto:`, `tel:`): a plain prefix on the rest.
            return u.host == nil && rest(of: u, path: u.path).hasPrefix(rest(of: p, path: p.path))
        }
        guard let uHost = u.host, canonical(pHost) == canonical(uHost), p.effectivePort == u.effectivePort else { return false }
        let pPath = p.normalizedPath
        if u.hasEncodedSeparator && pPath != "/" { return false }
        let pRest = rest(of: p, path: pPath), uRest = rest(of: u, path: u.normalizedPath)
        guard uRest.hasPrefix(pRest) else { return false }
        return boundary(after: pRest, in: uRest)
    }

    /// The longest of `prefixes` that claims `url` (its length), nil when none does.
    public static func longestMatch(_ prefixes: [String], _ url: String) -> Int? {
        guard let u = try? TagURL(url) else { return nil }
        return prefixes.compactMap { prefix in (try? TagURL(prefix)).flatMap { match($0, u) ? prefix.count : nil } }.max()
    }

    /// The path, then `?query` and `#fragment` as written.
    private static func rest(of url: TagURL, path: String) -> String {
        path + (url.query.map { "?" + $0 } ?? "") + (url.fragment.map { "#" + $0 } ?? "")
    }

    /// `example.com.` is `example.com`.
    private static func canonical(_ host: String) -> String {
        host.hasSuffix(".") ? String(host.dropLast()) : host
    }

    /// The URL after the prefix must start a new path segment, query or fragment (or be empty),
    /// unless the prefix itself ends with a separator.
    private static func boundary(after matched: String, in rest: String) -> Bool {
        if matched.count == rest.count { return true }
        if let last = matched.last, "/?#&=".contains(last) { return true }
        let next = rest[rest.index(rest.startIndex, offsetBy: matched.count)]
        return "/?#".contains(next)
    }
}
