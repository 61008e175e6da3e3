// Text for desktop notifications (Desktop Notifications Specification, "Markup"): the body may
// hold a small XML-like markup, so text is escaped (&, <, >) before it goes there; the summary is
// plain text. Every line goes through `DisplayText.line` (docs/desktop-agent.md §3): a tag can
// neither add a line of its own nor hide or reorder characters.

public enum NotificationText {
    /// Longest summary / body line, in characters (longer text ends with "…").
    public static let maximumSummary = 120
    public static let maximumLine = 200
    /// Lines in a body.
    public static let maximumLines = 6

    /// `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`.
    public static func escapeMarkup(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }

    /// One sanitised, bounded line.
    public static func summary(_ text: String) -> String {
        DisplayText.line(text, limit: maximumSummary)
    }

    /// The body: each of `lines` sanitised to one bounded line (a newline inside one becomes a
    /// space), empty ones dropped, then escaped when the server renders `markup`.
    public static func body(lines: [String], markup: Bool) -> String {
        let plain = lines.map { DisplayText.line($0, limit: maximumLine) }.filter { !$0.isEmpty }
            .prefix(maximumLines).joined(separator: "\n")
        return markup ? escapeMarkup(plain) : plain
    }
}
