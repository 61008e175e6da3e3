import Foundation
import ReaderCore

/// Human messages go to stderr; stdout is for machine output.
package enum Stderr {
    package static func line(_ text: String) {
        write(text + "\n")
    }

    /// With write(2) (`StandardError`), not `FileHandle`: a closed or full stderr loses the
    /// message instead of ending the process.
    package static func write(_ text: String) {
        StandardError.write(text)
    }

    /// True when stderr is a terminal (spinners, colours, live counters only then).
    package static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
