import Foundation

/// CSV cells as nfctap writes them: RFC 4180 quoting, plus neutralisation of cells a spreadsheet
/// would run as a formula (OWASP "CSV Injection"): a cell starting with `=`, `+`, `-`, `@`, a tab
/// or a carriage return gets a leading `'`, so `=HYPERLINK(…)` from a tag is shown as text.
/// JSON output is never altered this way.
public enum CSVCell {
    /// The characters that make a spreadsheet read a cell as a formula when it starts with one.
    public static let formulaTriggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// `value` with a `'` in front when it starts with a formula trigger.
    public static func neutralised(_ value: String) -> String {
        // Unicode scalars, not Characters: "\r\n" is one Character, but still starts with CR.
        guard let first = value.unicodeScalars.first, formulaTriggers.contains(Character(first)) else { return value }
        return "'" + value
    }

    /// One RFC 4180 field: neutralised, then quoted when it holds a comma, quote, CR or LF (or
    /// starts or ends with a space), quotes doubled.
    public static func field(_ value: String) -> String {
        let value = neutralised(value)
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
            || value.first == " " || value.last == " "
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
