import Glibc

/// How a child ended, from a `waitpid` status (WIFEXITED / WEXITSTATUS / WTERMSIG by hand: they
/// are macros Swift does not import).
package enum ChildStatus: Equatable, Sendable {
    /// exit(code), 0–255.
    case exited(Int32)
    /// Ended by a signal.
    case killed(signal: Int32)

    package init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal)
    }

    /// Reaps `pid`: nil while it still runs (`block: false`). Retries on EINTR.
    /// - Throws: `SpawnError.waitFailed` (e.g. ECHILD).
    package static func wait(_ pid: pid_t, block: Bool) throws(SpawnError) -> ChildStatus? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, block ? 0 : WNOHANG)
            if r == pid { return ChildStatus(waitStatus: status) }
            if r == 0 { return nil }
            let e = errno
            if e == EINTR { continue }
            throw .waitFailed(pid, errno: e)
        }
    }
}
