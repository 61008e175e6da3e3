import Foundation

/// Machine output on stdout, flushed line by line (a pipe or the journal sees each line at once).
package enum StandardOutput {
    /// Flushes what `print` buffered. `fflush(nil)` flushes every output stream: Swift 6 refuses
    /// to touch the C `stdout` global (shared mutable state), and stderr is unbuffered anyway.
    package static func flush() {
        fflush(nil)
    }
}
