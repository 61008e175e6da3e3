import Foundation
import Glibc
import ProcessSpawn

/// Runs a program with posix_spawn (`Spawn`, no shell): argv as given, an environment, bytes on stdin,
/// stdout/stderr inherited. The child leads its own process group so a timeout can stop it and
/// everything it started: SIGTERM to the group, then SIGKILL after a grace period. When the
/// program exits on its own, whatever it left running in its group (`cmd &`) is ended the same
/// way, so nothing outlives the tap. (A process that leaves the group, e.g. with `setsid`, is
/// beyond reach.)
/// Every process call of the exec hook is in this file.
package struct ProcessRunner {
    package var arguments: [String]
    package var environment: [String: String]
    package var input: [UInt8]
    package var timeout: Duration
    package var killGrace: Duration = .seconds(2)

    package init(arguments: [String], environment: [String: String], input: [UInt8], timeout: Duration) {
        self.arguments = arguments
        self.environment = environment
        self.input = input
        self.timeout = timeout
    }

    /// Starts the program and waits for it. Returns its exit status.
    /// - Throws: `.commandNotFound`, `.commandNotStartable`, `.commandTimedOut`, `.commandKilled`.
    package func run() throws -> Int32 {
        let name = arguments[0]
        // stdin is one end of a socket pair rather than a pipe: send(MSG_NOSIGNAL) cannot raise
        // SIGPIPE in nfctap when the program exits without reading.
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw PairingError.commandNotStartable(name, errno: errno)
        }
        var parentEnd = fds[0]
        defer { if parentEnd >= 0 { close(parentEnd) } }

        let spawn = Spawn(arguments: arguments, environment: environment, detachment: .processGroup,
                          fileActions: [.duplicate(fds[1], to: 0)])
        let started = Result { () throws(SpawnError) in try spawn.start() }
        close(fds[1])
        let pid: pid_t
        switch started {
        case .success(let p): pid = p
        case .failure(.notFound), .failure(.emptyCommand): throw PairingError.commandNotFound(name)
        case .failure(.cannotStart(_, let e)): throw PairingError.commandNotStartable(name, errno: e)
        case .failure(.invalidArgument): throw PairingError.commandNotStartable(name, errno: EINVAL)
        case .failure(.waitFailed(_, let e)): throw PairingError.commandNotStartable(name, errno: e)
        }

        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var offset = 0
        if input.isEmpty { shutdown(parentEnd, Int32(SHUT_WR)) }
        while true {
            // Feed stdin without blocking: a program that never reads must not stall nfctap.
            if parentEnd >= 0 && offset < input.count {
                let n = input[offset...].withUnsafeBytes {
                    send(parentEnd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if n > 0 {
                    offset += n
                    if offset == input.count { shutdown(parentEnd, Int32(SHUT_WR)) }
                } else if n < 0 && errno != EAGAIN && errno != EINTR {
                    close(parentEnd)   // EPIPE: the program closed its stdin
                    parentEnd = -1
                }
            }
            if let status = try reap(pid, block: false) {
                // A background child the program left behind must not outlive the tap.
                endGroup(pid)
                return try outcome(status, name)
            }
            if clock.now >= deadline {
                kill(-pid, SIGTERM)
                let graceEnd = clock.now + killGrace
                while clock.now < graceEnd {
                    if try reap(pid, block: false) != nil {
                        kill(-pid, SIGKILL)   // anything it left behind in its group
                        throw PairingError.commandTimedOut(name, seconds: timeout.seconds)
                    }
                    waitBriefly(parentEnd, wantWrite: false)
                }
                kill(-pid, SIGKILL)
                _ = try reap(pid, block: true)
                throw PairingError.commandTimedOut(name, seconds: timeout.seconds)
            }
            waitBriefly(parentEnd, wantWrite: parentEnd >= 0 && offset < input.count)
        }
    }

    /// Ends what is left of the process group `pgid` (the program's background children):
    /// SIGTERM, then SIGKILL for those still running after `killGrace`. Returns at once when
    /// nothing is left.
    private func endGroup(_ pgid: pid_t) {
        guard Self.groupIsRunning(pgid) else { return }
        kill(-pgid, SIGTERM)
        let clock = ContinuousClock()
        let graceEnd = clock.now + killGrace
        while clock.now < graceEnd {
            if !Self.groupIsRunning(pgid) { return }
            usleep(10_000)
        }
        kill(-pgid, SIGKILL)
    }

    /// Whether a process of group `pgid` is still running. Zombies do not count: orphans are
    /// reaped by init, which may take its time (or, in a container, never), and
    /// `kill(-pgid, 0)` would still find them.
    static func groupIsRunning(_ pgid: pid_t) -> Bool {
        guard let proc = opendir("/proc") else { return kill(-pgid, 0) == 0 }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let first = name.utf8.first, (0x30...0x39).contains(first) else { continue }
            guard let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state ppid pgrp …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count >= 3, let group = pid_t(fields[2]), group == pgid else { continue }
            if fields[0] != "Z" && fields[0] != "X" { return true }
        }
        return false
    }

    /// waitpid; nil while the child runs.
    private func reap(_ pid: pid_t, block: Bool) throws -> ChildStatus? {
        do {
            return try ChildStatus.wait(pid, block: block)
        } catch {
            guard case .waitFailed(_, let e) = error else { throw PairingError.commandNotStartable(arguments[0], errno: ECHILD) }
            throw PairingError.commandNotStartable(arguments[0], errno: e)
        }
    }

    /// The exit code, or `.commandKilled` when a signal ended the program.
    private func outcome(_ status: ChildStatus, _ name: String) throws -> Int32 {
        switch status {
        case .exited(let code): return code
        case .killed(let signal): throw PairingError.commandKilled(name, signal: signal)
        }
    }

    /// Up to 10 ms: until stdin can take more bytes, or just a tick to poll the child again.
    private func waitBriefly(_ fd: Int32, wantWrite: Bool) {
        var p = pollfd(fd: wantWrite ? fd : -1, events: Int16(POLLOUT), revents: 0)
        _ = poll(&p, 1, 10)
    }
}
