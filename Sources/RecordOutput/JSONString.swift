/// The string escaping of nfctap's one JSON writer (`JSONValue`, `JSONDocument`), which every
/// `--json` / JSON Lines output uses.
///
/// Escaped as `\uXXXX` (still valid JSON, the same string after parsing): C0 controls (with the
/// short forms `\n`, `\r`, `\t`, `\b`, `\f`), DEL, C1 controls (U+0080–U+009F, e.g. U+009B, the
/// 8-bit CSI a terminal may obey), the bidirectional controls U+200E, U+200F, U+202A–U+202E and
/// U+2066–U+2069 (they reorder what a person sees), and U+2028/U+2029 (line breaks to JavaScript
/// and some viewers). `"` and `\` are escaped as JSON requires; everything else, non-ASCII
/// included, is written as UTF-8.
public enum JSONString {
    /// Whether `scalar` is written as `\uXXXX` (or a short escape) rather than as itself.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x200E || v == 0x200F
            || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// `s` as a quoted JSON string.
    public static func quoted(_ s: String) -> String {
        var out = ""
        append(s, to: &out)
        return out
    }

    /// Appends `s` as a quoted JSON string.
    public static func append(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let c where needsEscape(c):
                let hex = String(c.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
