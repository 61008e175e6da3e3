// Text for desktop notifications (Desktop Notifications Specification, "Markup"): the body may
// hold a small XML-like markup, so tag text is escaped (&, <, >) before it goes there; the
// summary is plain text. Both lose control characters and are bounded.

public enum NotificationText {
    /// Longest summary / body, in characters (longer text ends with "…").
    public static let maximumSummary = 120
    public static let maximumBody = 1000

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

    /// One line: controls (C0, DEL, C1, newlines) and bidi overrides become spaces; bounded.
    public static func summary(_ text: String) -> String {
        truncate(clean(text, keepNewlines: false), to: maximumSummary)
    }

    /// Body text: controls other than newline removed, bounded, then escaped when `markup`.
    public static func body(_ text: String, markup: Bool) -> String {
        let plain = truncate(clean(text, keepNewlines: true), to: maximumBody)
        return markup ? escapeMarkup(plain) : plain
    }

    static func clean(_ text: String, keepNewlines: Bool) -> String {
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            let v = s.value
            if v == 0x0A && keepNewlines { out.append(s); continue }
            if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                out.append(" ")
            } else {
                out.append(s)
            }
        }
        return String(out)
    }

    static func truncate(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
