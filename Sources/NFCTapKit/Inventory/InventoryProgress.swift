import SafeText
import Foundation
import Synchronization

/// What `inventory` tells the person tapping, on stderr: one "✓ #n UID" line per record, or on a
/// terminal a single line updated in place with the running count.
package final class InventoryProgress: Sendable {

    /// stderr is a terminal: update one line instead of printing one per tap.
    package let live: Bool
    private let write: @Sendable (String) -> Void
    /// A live line is on screen (not ended by a newline); writes happen under its lock.
    private let lineOpen = Mutex(false)

    package init(live: Bool = isatty(STDERR_FILENO) != 0,
         write: @escaping @Sendable (String) -> Void = { Stderr.write($0) }) {
        self.live = live
        self.write = write
    }

    /// A record is on disk (called before the reader beeps).
    package func confirmed(_ record: InventoryRecord, complete: Bool, stats: InventoryStats) {
        let uid = Self.readableUID(record.uid)
        var line = complete ? "✓ #\(record.sequence) \(uid)" : "✗ #\(record.sequence) \(uid)"
        if let product = record.product { line += " " + SafeText.escaped(product) }
        if record.duplicate { line += " (duplicate)" }
        if !complete, let error = record.error { line += ": " + SafeText.escaped(error) + " (recorded; tap again)" }
        lineOpen.withLock { lineOpen in
            if live {
                let count = "\(stats.taps) taps, \(stats.uniqueTags) unique, \(stats.duplicates) duplicates"
                write("\r\u{1B}[K" + line + " · " + count)
                lineOpen = true
            } else {
                write(line + "\n")
            }
        }
    }

    /// A message on its own line (closing the live line first).
    package func note(_ text: String) {
        lineOpen.withLock { lineOpen in
            write((lineOpen ? "\n" : "") + text + "\n")
            lineOpen = false
        }
    }

    /// Says `nfctap: error: <message>` on its own line (closing the live line first) and returns
    /// the error the command throws, already reported.
    package func fail(_ message: String, status: Int32) -> CLIError {
        note(CLIError.line(message))
        return CLIError.reported(status: status)
    }

    /// `04A1B2…` → `04:A1:B2:…`.
    package static func readableUID(_ hex: String) -> String {
        var out = ""
        for (i, c) in hex.enumerated() {
            if i > 0, i % 2 == 0 { out += ":" }
            out.append(c)
        }
        return out
    }
}
