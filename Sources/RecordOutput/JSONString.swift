import SafeText

/// The string escaping of nfctap's one JSON writer (`JSONValue`, `JSONDocument`), which every
/// `--json` / JSON Lines output uses.
///
/// Escaped as `\uXXXX` (still valid JSON, the same string after parsing; a scalar beyond U+FFFF as
/// its UTF-16 surrogate pair): everything `SafeText` escapes (controls, C1, bidi and zero-width
/// characters, U+2028/9), C0 with the short forms `\n`, `\r`, `\t`, `\b`, `\f`. `"` and `\` are
/// escaped as JSON requires; everything else, non-ASCII included, is written as UTF-8.
public enum JSONString {
    /// Whether `scalar` is written as `\uXXXX` (or a short escape) rather than as itself.
    @inline(__always)
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool { SafeText.needsEscape(scalar) }

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
                for unit in String(c).utf16 {
                    let hex = String(unit, radix: 16, uppercase: false)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
