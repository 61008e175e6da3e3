import Foundation
import SafeText
import ReaderCore

/// Human messages go to stderr; stdout is for machine output.
package enum Stderr {
    /// A message line; text from tags, readers and the network in it is escaped (`SafeText`).
    package static func line(_ text: String) {
        write(SafeText.escaped(text, keepingLayout: true) + "\n")
    }

    /// Text as it is (nfctap's own terminal sequences: a spinner, colours), with write(2)
    /// (`StandardError`), not `FileHandle`: a closed or full stderr loses the message instead of
    /// ending the process.
    package static func write(_ text: String) {
        StandardError.write(text)
    }

    /// True when stderr is a terminal (spinners, colours, live counters only then).
    package static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

/// Lines for people on stdout (`scan`'s heading, `readers`, `doctor`): text from tags, readers and
/// the network in them is escaped (`SafeText`). Machine output (JSON) is escaped by its writer.
package enum Stdout {
    package static func line(_ text: String) {
        print(SafeText.escaped(text, keepingLayout: true))
    }
}
