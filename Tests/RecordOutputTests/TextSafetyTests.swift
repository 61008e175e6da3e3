import Foundation
@testable import RecordOutput
import SafeText
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

    @Test("JSON: zero-width characters, the BOM and tag characters escaped too (beyond U+FFFF as a surrogate pair)")
    func jsonZeroWidth() throws {
        let hostile = "pay\u{200B}pal\u{200D}\u{2060}\u{FEFF}\u{061C}x\u{E0041}"
        let text = JSONString.quoted(hostile)
        #expect(text == "\"pay\\u200bpal\\u200d\\u2060\\ufeff\\u061cx\\udb40\\udc41\"")
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [String]
        #expect(parsed == [hostile])
    }
}

/// The one escaping of text from tags, readers and the network (`SafeText`), which terminals, logs
/// and JSON all use.
@Suite struct SafeTextTests {
    @Test("terminal sequences, C1, bidi, zero-width and separators are escaped; letters, emoji and accents are not", arguments: [
        ("ACS\u{1B}]0;owned\u{07}", "ACS\\u{1B}]0;owned\\u{7}"),
        ("a\u{9B}2Jb", "a\\u{9B}2Jb"),
        ("gpj.\u{202E}exe", "gpj.\\u{202E}exe"),
        ("pay\u{200B}pal", "pay\\u{200B}pal"),
        ("line\u{2028}two", "line\\u{2028}two"),
        ("tag\u{E0041}", "tag\\u{E0041}"),
        ("Ünïcödé 日本 🙂", "Ünïcödé 日本 🙂"),
        ("one\ntwo\tx\r", "one\\ntwo\\tx\\r"),
    ])
    func oneLine(input: String, expected: String) {
        #expect(SafeText.escaped(input) == expected)
        #expect(!SafeText.escaped(input).unicodeScalars.contains(where: SafeText.needsEscape))
    }

    @Test("keepingLayout keeps nfctap's own line breaks and tabs, and escapes the rest")
    func layout() {
        #expect(SafeText.escaped("a\tb\nc\u{1B}[2J\r", keepingLayout: true) == "a\tb\nc\\u{1B}[2J\\r")
    }

    @Test("escaping twice changes nothing more: an escape is plain ASCII")
    func idempotent() {
        let once = SafeText.escaped("x\u{1B}\u{202E}\u{200B}")
        #expect(SafeText.escaped(once) == once)
    }
}
