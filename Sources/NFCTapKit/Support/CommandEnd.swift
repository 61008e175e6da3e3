#if canImport(Glibc)
// `stdout` is a C global (shared mutable state to Swift 6): flushed and checked here only, at the end.
@preconcurrency import Glibc
#endif
import Foundation

/// How the `nfctap` process ends: the exit status after the command, with machine output that
/// could not be written counting as a failure (`nfctap scan --json > /dev/full` exits 1).
package enum CommandEnd {
    /// Flushes stdout; when that or an earlier write to it failed, says so on stderr and turns a
    /// success into `ExitStatus.failure`. Returns the status to exit with.
    package static func status(after status: Int32) -> Int32 {
        let flushed = fflush(stdout) == 0
        let clean = ferror(stdout) == 0
        guard !(flushed && clean) else { return status }
        let reason = flushed ? "an earlier write failed" : String(cString: strerror(errno))
        Stderr.line(CLIError.line("cannot write the output to stdout: \(reason)"))
        return status == ExitStatus.ok ? ExitStatus.failure : status
    }
}
