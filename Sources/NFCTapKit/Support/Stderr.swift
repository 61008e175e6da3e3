import Foundation

/// Human messages go to stderr; stdout is for machine output.
package enum Stderr {
    package static func line(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` whole with write(2): no `FileHandle` or `Data` on the way (their first use
    /// costs a start-up's worth of runtime look-ups, docs/architecture.md "Start-up"), and a
    /// closed or broken stderr loses the message instead of ending the process.
    package static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = Glibc.write(STDERR_FILENO, next, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                next += written
                left -= written
            }
        }
    }

    /// True when stderr is a terminal (spinners, colours, live counters only then).
    package static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
