import SafeText
import CoreNFCLinux
import Foundation
import RecordOutput

/// The demo's voice: narration on stderr, tags on stdout exactly as `scan` prints them (text
/// lines, or one JSON object per line with `--json`), pauses between steps when watched.
package final class DemoNarrator: Sendable {
    package let json: Bool
    package let pause: TimeInterval

    package init(json: Bool, pause: TimeInterval) {
        self.json = json
        self.pause = pause
    }

    /// Writes `text` to stderr, line by line (control characters in a line shown escaped).
    package func say(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { SafeText.escaped(String($0)) }
        Stderr.write(SafeText.escaped(lines.joined(separator: "\n"), keepingLayout: true) + "\n")
    }

    /// Prints a tag as `scan` would; with `--json`, `extra` fields follow the tag's own.
    package func show(_ report: NFCTagReport, extra: [(String, JSONValue)] = []) {
        if json {
            print(JSONDocument.line(TagReportJSON.object(report, extra: extra)))
        } else {
            for line in TagReportJSON.lines(report) { Stdout.line(line) }
        }
        StandardOutput.flush()
    }

    /// The pause between steps (none when nobody watches).
    package func wait() async {
        if pause > 0 { try? await Task.sleep(for: .milliseconds(Int64(pause * 1000))) }
    }
}
