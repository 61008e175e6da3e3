import Foundation
import Glibc

/// Runs a program with posix_spawn (no shell): argv as given, an environment, bytes on stdin,
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

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 0)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let r = posix_spawnp(&pid, name, &actions, &attr, argv, envp)
        close(fds[1])
        guard r == 0 else {
            if r == ENOENT || r == ENOTDIR { throw PairingError.commandNotFound(name) }
            throw PairingError.commandNotStartable(name, errno: r)
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
    private func reap(_ pid: pid_t, block: Bool) throws -> Int32? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, block ? 0 : WNOHANG)
            if r == pid { return status }
            if r == 0 { return nil }
            if errno == EINTR { continue }
            throw PairingError.commandNotStartable(arguments[0], errno: errno)
        }
    }

    /// Exit status from a wait status (WIFEXITED / WEXITSTATUS / WTERMSIG by hand: macros).
    private func outcome(_ status: Int32, _ name: String) throws -> Int32 {
        let signal = status & 0x7F
        if signal == 0 { return (status >> 8) & 0xFF }
        throw PairingError.commandKilled(name, signal: signal)
    }

    /// Up to 10 ms: until stdin can take more bytes, or just a tick to poll the child again.
    private func waitBriefly(_ fd: Int32, wantWrite: Bool) {
        var p = pollfd(fd: wantWrite ? fd : -1, events: Int16(POLLOUT), revents: 0)
        _ = poll(&p, 1, 10)
    }
}
