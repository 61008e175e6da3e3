import Foundation

// Which tag URLs the agent may open with the user's default handler when no application claims
// them: web links, phone numbers and mail addresses. Anything else (file:, javascript:, smb:,
// a custom scheme) only opens through an application that claims it (README.md, "Desk:
// background reading").

public enum URLSchemePolicy {
    /// Schemes opened with the default handler without a claim.
    public static let openableWithoutClaim: Set<String> = ["http", "https", "tel", "mailto"]
    /// The longest URL handed to any handler.
    public static let maximumURLLength = TagURL.maximumLength

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

    /// True when `url` is well-formed enough to hand to a program: `TagURL` parses it (no controls,
    /// spaces, backslashes or invisible characters; an unambiguous host; bounded) — whoever opens it.
    public static func isHandOverSafe(_ url: String) -> Bool {
        (try? TagURL(url)) != nil
    }

    /// True when the default handler may open `url` with no application claiming it: a web, phone
    /// or mail URL that `TagURL` parses, with no userinfo (`https://bank.example@evil.example/`
    /// opens evil.example: refused, docs/desktop-agent.md §2).
    public static func mayOpenWithoutClaim(_ url: String) -> Bool {
        guard let parsed = try? TagURL(url) else { return false }
        return parsed.userinfo == nil && openableWithoutClaim.contains(parsed.scheme) && unsafeMailFields(parsed).isEmpty
    }

    /// The header fields of a `mailto:` URL (RFC 6068 §2) a mail program may honour.
    public static let mailFields: Set<String> = ["to", "cc", "bcc", "subject", "body", "in-reply-to"]

    /// The fields of a `mailto:` URL beyond `mailFields` (names lowercased, percent-decoded):
    /// `attach=` / `attachment=` make some mail programs attach a local file (docs/desktop-agent.md §2).
    public static func unsafeMailFields(_ url: TagURL) -> [String] {
        guard url.scheme == "mailto", let query = url.query else { return [] }
        return query.split(separator: "&").compactMap { field in
            let raw = String(field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            let name = (raw.removingPercentEncoding ?? raw).lowercased()
            return mailFields.contains(name) ? nil : name
        }
    }
}
