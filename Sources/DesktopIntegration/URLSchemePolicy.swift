// Which tag URLs the agent may open with the user's default handler when no application claims
// them: web links, phone numbers and mail addresses. Anything else (file:, javascript:, smb:,
// a custom scheme) only opens through an application that claims it (README.md, "Desk:
// background reading").

public enum URLSchemePolicy {
    /// Schemes opened with the default handler without a claim.
    public static let openableWithoutClaim: Set<String> = ["http", "https", "tel", "mailto"]
    /// The longest URL handed to any handler.
    public static let maximumURLLength = 8192

    /// The scheme (RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), lowercased;
    /// nil when `url` does not start with one.
    public static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        guard scheme.unicodeScalars.allSatisfy({
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }) else { return nil }
        return scheme.lowercased()
    }

    /// True when `url` is well-formed enough to hand to a program (no controls, no spaces, not
    /// empty, bounded) — whoever opens it.
    public static func isHandOverSafe(_ url: String) -> Bool {
        guard !url.isEmpty, url.utf8.count <= maximumURLLength, scheme(of: url) != nil else { return false }
        return !url.unicodeScalars.contains { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// True when the default handler may open `url` with no application claiming it.
    public static func mayOpenWithoutClaim(_ url: String) -> Bool {
        guard isHandOverSafe(url), let scheme = scheme(of: url) else { return false }
        return openableWithoutClaim.contains(scheme)
    }
}
