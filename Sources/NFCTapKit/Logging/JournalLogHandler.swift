import SafeText
import Foundation
import ReaderCore
import Synchronization
import Logging
import RecordOutput

/// A swift-log handler for services: one event per line on stderr, in the form journald parses
/// (sd-daemon(3) priority prefix, then the message, then `key=value` metadata):
///
///     <6>tag read reader="ACS ACR122U PICC Interface 00 00" type=type2 uid=04A1B2C3D4E5F6
///
/// Metadata keys are sorted, so lines are stable. Values with spaces, quotes, `=` or nothing are
/// quoted; control characters in messages and values are escaped, so a hostile tag or reader
/// name can never start a second line or inject a priority prefix.
package struct JournalLogHandler: LogHandler {
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    /// Where finished lines go (with their newline).
    private let sink: @Sendable (String) -> Void

    /// - Parameters:
    ///   - level: the lowest level written.
    ///   - sink: receives each line, newline included; default: stderr, one write per line.
    package init(level: Logger.Level = .info, sink: @escaping @Sendable (String) -> Void = StandardErrorLines.write) {
        self.logLevel = level
        self.sink = sink
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        if let error = event.error, merged["error"] == nil { merged["error"] = "\(error)" }
        sink(Self.line(level: event.level, message: event.message.description, metadata: merged) + "\n")
    }

    /// The line for one event, without its newline.
    package static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var out = "<\(priority(level))>" + SafeText.escaped(message)
        for key in metadata.keys.sorted() {
            out += " " + escapedKey(key) + "=" + value(metadata[key]!)
        }
        return out
    }

    /// sd-daemon(3) / syslog priorities: 7 debug … 2 critical.
    package static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    private static func value(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case let .string(s): return quotedIfNeeded(s)
        case let .stringConvertible(c): return quotedIfNeeded(c.description)
        case let .array(items): return quotedIfNeeded("[" + items.map { flat($0) }.joined(separator: ",") + "]")
        case let .dictionary(d):
            return quotedIfNeeded("{" + d.keys.sorted().map { "\($0):\(flat(d[$0]!))" }.joined(separator: ",") + "}")
        }
    }

    private static func flat(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case let .string(s): return s
        case let .stringConvertible(c): return c.description
        case let .array(items): return "[" + items.map { flat($0) }.joined(separator: ",") + "]"
        case let .dictionary(d): return "{" + d.keys.sorted().map { "\($0):\(flat(d[$0]!))" }.joined(separator: ",") + "}"
        }
    }

    /// `"…"` with `\"` and `\\` when the value is empty or holds a space, quote, backslash or `=`.
    package static func quotedIfNeeded(_ s: String) -> String {
        let needsQuotes = s.isEmpty || s.unicodeScalars.contains { c in
            c == " " || c == "\"" || c == "\\" || c == "=" || c.value < 0x20 || c.value == 0x7F
        }
        guard needsQuotes else { return SafeText.escaped(s) }
        let quoted = s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + SafeText.escaped(quoted) + "\""
    }

    /// Keys are ours, but keep them one token anyway.
    private static func escapedKey(_ key: String) -> String {
        let cleaned = String(key.unicodeScalars.map { c -> Character in
            c == " " || c == "=" || c == "\"" || c.value < 0x20 || c.value == 0x7F ? "_" : Character(c)
        })
        return cleaned.isEmpty ? "_" : cleaned
    }
}

/// Writes whole lines to stderr (`StandardError`) under a lock, so lines from several threads
/// never interleave.
package enum StandardErrorLines {
    private static let lock = Mutex(())

    @Sendable package static func write(_ line: String) {
        lock.withLock { _ in StandardError.write(line) }
    }
}
