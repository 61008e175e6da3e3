import Foundation
import NDEF

/// pcsc-tools' `smartcard_list.txt` (what `pcsc_scan` explains ATRs with), parsed without trust:
/// an entry is an ATR pattern line (upper-case hex pairs, `.` for any digit, sometimes a regular
/// expression such as `[0-9A-F]`) followed by tab-indented description lines; `#` starts a
/// comment. Lines that fit neither are skipped; the file is read up to `maxBytes`.
package struct SmartcardList: Sendable {
    package struct Entry: Sendable {
        package var pattern: String
        package var descriptions: [String]
    }

    /// Where Debian's pcsc-tools installs the list.
    package static let defaultPath = "/usr/share/pcsc/smartcard_list.txt"
    /// The list is about 1 MB; anything much larger is not it.
    package static let maxBytes = 16 << 20

    package let path: String
    package let entries: [Entry]

    /// nil when the file is missing, unreadable or too large.
    package init?(path: String = SmartcardList.defaultPath) {
        guard let data = FileManager.default.contents(atPath: path), data.count <= Self.maxBytes else { return nil }
        self.init(text: String(decoding: data, as: UTF8.self), path: path)
    }

    package init(text: String, path: String) {
        self.path = path
        var entries: [Entry] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = String(raw)
            if line.hasPrefix("#") { continue }
            if line.first == "\t" || line.first == " " {
                let text = line.trimmingCharacters(in: .whitespaces)
                if !text.isEmpty, !entries.isEmpty { entries[entries.count - 1].descriptions.append(text) }
            } else if let first = line.first, first.isHexDigit {
                entries.append(Entry(pattern: line.trimmingCharacters(in: .whitespaces).uppercased(), descriptions: []))
            }
        }
        self.entries = entries
    }

    /// The descriptions of every entry whose pattern matches `atr` (as "3B 8F 80 …").
    package func descriptions(matching atr: [UInt8]) -> [String] {
        let text = atr.hexString(separator: " ")
        return entries.filter { Self.matches($0.pattern, text) }.flatMap(\.descriptions)
    }

    /// A pattern of hex digits, spaces and `.` is compared position by position (`.` is any
    /// character), which covers nearly the whole list; any other pattern is a regular expression
    /// over the whole ATR text. A pattern that does not compile matches nothing.
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let plain = pattern.allSatisfy { $0.isHexDigit || $0 == " " || $0 == "." }
        if plain {
            guard pattern.count == text.count else { return false }
            return zip(pattern, text).allSatisfy { $0 == "." || $0 == $1 }
        }
        guard let regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
