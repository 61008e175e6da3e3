import Foundation

/// Human messages go to stderr; stdout is for machine output.
package enum Stderr {
    package static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// True when stderr is a terminal (spinners, colours, live counters only then).
    package static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
