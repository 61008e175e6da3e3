import Foundation
import Glibc
import Synchronization

/// Coexistence of reader sessions with the background reader (`nfctap agent`), as iOS pauses
/// background tag reading while an app runs a session (README.md, "Desk: background reading").
///
/// Two lock files in `$XDG_RUNTIME_DIR/nfctap/` carry the signal between processes:
/// - `session.lock`: every session of this library (CLI or app) holds a *shared* `flock` on it
///   from `begin()` until it ends, unless `NFCSessionConfiguration.pausesBackgroundReading` is false.
///   The agent tests it with a non-blocking *exclusive* `flock`: refused = a session runs, so the
///   agent releases every reader; granted = none runs (the agent drops the lock at once). A session
///   touches the file once its lock is granted and unlocks before closing it, which the agent's
///   inotify watch sees (`SessionWatch`): the agent reacts at once, with no polling.
/// - `agent.lock`: the agent holds a *shared* `flock` while it has readers open. A starting
///   session waits (at most `handOverTimeout`) until an exclusive test of it succeeds, so it does
///   not race the agent for a tag that the agent still has connected.
/// Locks die with their process, so a crashed session or agent never blocks the other.
public enum NFCBackgroundReading {
    /// The one variable these functions read, from `getenv`.
    @usableFromInline
    static func runtimeEnvironment() -> [String: String] {
        getenv("XDG_RUNTIME_DIR").map { ["XDG_RUNTIME_DIR": String(cString: $0)] } ?? [:]
    }

    /// How long a starting session waits for the agent to let go of the readers.
    public static let handOverTimeout: Duration = .seconds(3)

    /// `$XDG_RUNTIME_DIR/nfctap`, created 0700; nil without a usable `XDG_RUNTIME_DIR`
    /// (then sessions and the agent do not coordinate).
    public static func directory(environment: [String: String] = NFCBackgroundReading.runtimeEnvironment()) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let dir = runtime + "/nfctap"
        if mkdir(dir, 0o700) != 0 && errno != EEXIST { return nil }
        var st = stat()
        guard lstat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid() else { return nil }
        return dir
    }

    /// A held `flock`; released when the value goes away.
    public final class Hold: Sendable {
        private let fd: Mutex<Int32>
        init(fd: Int32) { self.fd = Mutex(fd) }
        /// Releases the lock now (once, whichever thread asks). Unlocks before closing: the close
        /// is what the agent's inotify watch sees, and the lock must be gone by then.
        public func release() {
            fd.withLock { fd in
                if fd >= 0 {
                    flock(fd, LOCK_UN)
                    close(fd)
                }
                fd = -1
            }
        }
        deinit { release() }
        /// Touches the locked file (IN_ATTRIB): flock raises no inotify event, this tells the
        /// agent's `SessionWatch` to test the lock now.
        func announce() {
            fd.withLock { fd in if fd >= 0 { _ = futimens(fd, nil) } }
        }
    }

    /// For a session: a shared lock on `session.lock`, after the agent (if any) released the readers.
    static func holdForSession(environment: [String: String] = NFCBackgroundReading.runtimeEnvironment()) -> Hold? {
        guard let dir = directory(environment: environment), let hold = lock(dir + "/session.lock", exclusive: false, wait: .seconds(1)) else { return nil }
        hold.announce()
        // Let the agent notice and let go: an exclusive test of agent.lock succeeds once it has.
        let agentLock = dir + "/agent.lock"
        let fd = open(agentLock, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            _ = tryLock(fd, exclusive: true, wait: handOverTimeout)
        }
        return hold
    }

    /// For the agent: true while any process runs a session (holds `session.lock`).
    public static func sessionIsActive(environment: [String: String] = NFCBackgroundReading.runtimeEnvironment()) -> Bool {
        guard let dir = directory(environment: environment) else { return false }
        let fd = open(dir + "/session.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// For the agent: a shared lock on `agent.lock` held while it has the readers.
    public static func holdForAgent(environment: [String: String] = NFCBackgroundReading.runtimeEnvironment()) -> Hold? {
        guard let dir = directory(environment: environment) else { return nil }
        return lock(dir + "/agent.lock", exclusive: false, wait: .seconds(1))
    }

    private static func lock(_ path: String, exclusive: Bool, wait: Duration) -> Hold? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return nil }
        guard tryLock(fd, exclusive: exclusive, wait: wait) else {
            close(fd)
            return nil
        }
        return Hold(fd: fd)
    }

    /// Non-blocking attempts every 20 ms until `wait` passes (a blocking flock could hang a session).
    private static func tryLock(_ fd: Int32, exclusive: Bool, wait: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        while true {
            if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else { return false }
            usleep(20_000)
        }
    }
}
