// The one sanitiser for text the agent shows (docs/desktop-agent.md §3). A tag controls every byte
// of its records, and a notification server draws what it is given: a line separator (U+2028/2029,
// NEL) starts a new line, a bidi control (U+202A–202E, U+2066–2069, U+200E/200F, U+061C) reorders
// what follows, a zero-width character hides a difference between two strings that look alike. So
// every piece of text, from a tag, a reader name or a desktop entry, goes through `line(_:limit:)`
// before it is shown: one line, visible characters only, bounded.

public enum DisplayText {
    /// Scalars per user-perceived character kept (a flag or a family emoji needs up to 7; more is
    /// a stack of combining marks drawn over the neighbouring lines).
    public static let maximumScalarsPerCharacter = 8

    /// Whether a scalar is drawn as itself: not a control (Cc), format character (Cf: bidi
    /// controls, zero-width characters, tag characters…), line or paragraph separator (Zl, Zp),
    /// private-use, surrogate or unassigned code point, nor a default-ignorable one (variation
    /// selectors, Hangul fillers, U+180E…), nor a noncharacter.
    public static func isVisible(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return false
        default:
            return !s.properties.isDefaultIgnorableCodePoint && !s.properties.isNoncharacterCodePoint
        }
    }

    /// One line of at most `limit` characters: controls, separators and other white space become
    /// one space per run (trimmed at both ends), invisible scalars are dropped, long stacks of
    /// combining marks are cut, and a longer text ends with "…".
    public static func line(_ text: String, limit: Int) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for s in text.unicodeScalars {
            let category = s.properties.generalCategory
            if s.properties.isWhitespace || category == .control || category == .lineSeparator
                || category == .paragraphSeparator || category == .spaceSeparator {
                pendingSpace = !out.isEmpty
                continue
            }
            guard isVisible(s) else { continue }
            if pendingSpace { out.append(" "); pendingSpace = false }
            out.append(s)
        }
        var bounded = String.UnicodeScalarView()
        for c in String(out) { bounded.append(contentsOf: c.unicodeScalars.prefix(maximumScalarsPerCharacter)) }
        let text = String(bounded)
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }
}
