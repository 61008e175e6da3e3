import Foundation
@testable import RecordOutput
import Testing

@Suite("CSV cells and JSON strings")
struct TextSafetyTests {
    @Test("CSV: formula triggers get a leading quote (OWASP), then RFC 4180 quoting", arguments: [
        ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\r\nx", "\"'\r\nx\""),
        ("plain", "plain"),
        ("a=b", "a=b"),
        ("", ""),
        ("a,b", "\"a,b\""),
        (" padded", "\" padded\""),
    ])
    func csv(value: String, expected: String) {
        #expect(CSVCell.field(value) == expected)
    }

    @Test("JSON: C0, DEL, C1, bidi controls and U+2028/2029 escaped as \\uXXXX; parsing gives the same string")
    func json() throws {
        let hostile = "a\u{1B}[2Jb\u{9B}31mc\u{202E}d\u{2028}e\u{2029}f\u{200E}\u{200F}\u{2066}\u{2069}\u{7F}\u{85}\"\\\n\té"
        let text = JSONString.quoted(hostile)
        #expect(text == "\"a\\u001b[2Jb\\u009b31mc\\u202ed\\u2028e\\u2029f\\u200e\\u200f\\u2066\\u2069\\u007f\\u0085\\\"\\\\\\n\\té\"")
        #expect(!text.unicodeScalars.contains { JSONString.needsEscape($0) })
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [String]
        #expect(parsed == [hostile])
    }
}
