/// The one escaping for text nfctap did not write itself (a tag's records, a reader's or USB
/// device's name, a libnfc connstring, a broker's reply, a station name) on its way to a
/// terminal, a log, a JSON document or another system.
///
/// Escaped are the scalars a person cannot see for what they are, or that act on what they see:
/// C0 controls (ESC starts a terminal sequence), DEL, C1 controls (U+009B is an 8-bit CSI),
/// format characters (Unicode category Cf: the bidirectional controls U+200E/F, U+202A–E and
/// U+2066–9 reorder what follows, the zero-width U+200B–D, U+2060 and U+FEFF hide a difference
/// between two names that look alike, tag characters hide text), and the line and paragraph
/// separators U+2028/9.
public enum SafeText {
    /// Whether `scalar` is never written as itself.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
        guard v >= 0xAD else { return false }  // (the fast path: ASCII and Latin-1 letters)
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// `text` with every scalar of `needsEscape` written as `\u{XXXX}` (Swift's notation, so the
    /// escape is unambiguous to a reader and itself harmless). `keepingLayout` keeps `\n` and `\t`
    /// (text whose lines nfctap lays out); without it they are `\n` and `\t` too (one log line).
    public static func escaped(_ text: String, keepingLayout: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepingLayout, "\t" where keepingLayout:
                out.append(scalar)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case let c where needsEscape(c):
                out.append(contentsOf: "\\u{\(String(c.value, radix: 16, uppercase: true))}".unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }
}
