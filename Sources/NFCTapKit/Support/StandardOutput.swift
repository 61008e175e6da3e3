#if canImport(Glibc)
// `stdout` is a C global (shared mutable state to Swift 6): read here only, to flush it.
@preconcurrency import Glibc
#endif
import Foundation

/// Machine output on stdout, flushed line by line (a pipe or the journal sees each line at once).
package enum StandardOutput {
    /// Flushes what `print` buffered for stdout.
    package static func flush() {
        fflush(stdout)
    }
}
