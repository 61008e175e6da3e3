import SafeText
import Foundation
import NDEF
import RecordOutput

/// Renders an NDEF message for people: one line per record, nested Smart Poster records indented.
///
///     1: URI https://example.com
///     2: Text [en] "Hello"
///     3: Smart Poster https://nfc.org (action open, size 4096, type image/png)
///       3.1: URI https://nfc.org
///
/// Strings from the tag are shown with control and bidirectional-override characters escaped
/// (`\u{1B}`), so a hostile tag cannot drive the terminal.
package enum NDEFText {
    /// - Throws: `NDEFError` in strict mode for a malformed payload (relaxed shows it on the line).
    package static func lines(_ message: NDEFMessage, mode: DecodingMode, limits: NDEFLimits = .default) throws -> [String] {
        try lines(message.records, prefix: "", indent: "", mode: mode, limits: limits, depth: 0)
    }

    private static func lines(_ records: [NDEFRecord], prefix: String, indent: String, mode: DecodingMode,
                              limits: NDEFLimits, depth: Int) throws -> [String] {
        var out: [String] = []
        for (i, record) in records.enumerated() {
            let label = "\(indent)\(prefix)\(i + 1): "
            var idNote = ""
            if !record.id.isEmpty {
                idNote = " [id " + (record.printableID.map { quoted($0) } ?? record.id.hexString) + "]"
            }
            do {
                let (line, nested) = try describe(record, mode: mode, limits: limits, depth: depth)
                out.append(label + line + idNote)
                if let nested {
                    out += try lines(nested, prefix: "\(prefix)\(i + 1).", indent: indent + "  ",
                                     mode: mode, limits: limits, depth: depth + 1)
                }
            } catch let error as NDEFError where mode == .relaxed {
                out.append(label + generic(record) + idNote + " (error: \(SafeText.escaped(error.description)))")
            }
        }
        return out
    }

    /// The line for one record and, for a Smart Poster, its nested records.
    private static func describe(_ record: NDEFRecord, mode: DecodingMode, limits: NDEFLimits,
                                 depth: Int) throws -> (String, [NDEFRecord]?) {
        switch try record.parsed(mode: mode, limits: limits) {
        case .empty:
            return ("Empty", nil)
        case let .uri(u):
            return ("URI \(SafeText.escaped(u.uri))", nil)
        case let .text(t):
            let encoding = t.encoding.isUTF16 ? " (UTF-16)" : ""
            return ("Text [\(SafeText.escaped(t.language))] \(quoted(t.text))\(encoding)", nil)
        case let .smartPoster(p):
            guard depth + 1 <= limits.maxNestingDepth else {
                throw NDEFError.limitExceeded(.nestingDepth, limit: limits.maxNestingDepth, offset: 0)
            }
            var details: [String] = []
            if let action = p.action { details.append("action " + (action.name ?? String(action.rawValue))) }
            if let size = p.size { details.append("size \(size)") }
            if let type = p.mimeType { details.append("type \(SafeText.escaped(type))") }
            let suffix = details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")"
            let nested = try NDEFMessage(bytes: record.payload, mode: mode, limits: limits)
            return ("Smart Poster \(SafeText.escaped(p.uri.uri))\(suffix)", nested.records)
        case let .media(m):
            let content: String
            if let text = m.text { content = quoted(text) }
            else if m.isJSON, let json = JSONValue(parsing: m.payload) { content = SafeText.escaped(json.jsonText) }
            else { content = hexPreview(m.payload) }
            return ("MIME \(SafeText.escaped(m.mediaType)), \(bytes(m.payload.count)): \(content)", nil)
        case let .absoluteURI(u):
            return ("Absolute URI \(SafeText.escaped(u.uri)), \(bytes(u.payload.count))\(preview(u.payload))", nil)
        case let .androidApplication(aar):
            return ("Android app \(SafeText.escaped(aar.packageName))", nil)
        case let .external(e):
            return ("External \(SafeText.escaped(e.name)), \(bytes(e.payload.count))\(preview(e.payload))", nil)
        case .unknown:
            return (generic(record), nil)
        }
    }

    private static func generic(_ record: NDEFRecord) -> String {
        let type = record.type.isEmpty ? "" : ", type " + (record.printableType.map { quoted($0) } ?? record.type.hexString)
        return "TNF \(record.tnf.rawValue)\(type), \(bytes(record.payload.count))\(preview(record.payload))"
    }

    private static func bytes(_ n: Int) -> String { n == 1 ? "1 byte" : "\(n) bytes" }
    private static func preview(_ payload: [UInt8]) -> String { payload.isEmpty ? "" : ": " + hexPreview(payload) }

    /// Up to 32 bytes of hex, then an ellipsis.
    private static func hexPreview(_ payload: [UInt8]) -> String {
        payload.count <= 32 ? payload.hexString : Array(payload.prefix(32)).hexString + "…"
    }

    private static func quoted(_ s: String) -> String {
        let escaped = s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + SafeText.escaped(escaped) + "\""
    }
}
