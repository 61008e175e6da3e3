import Foundation
import Glibc

/// Starts a program detached from the agent (argv as given, never through a shell): its own
/// session, stdin from /dev/null, stdout and stderr to the agent's stderr (the journal under
/// systemd). A thread reaps it when it exits.
public enum ProgramLauncher {
    /// Returns the child's pid.
    /// - Throws: `LaunchError.emptyCommand`, `.cannotStart` (e.g. ENOENT: not in PATH).
    @discardableResult
    public static func launch(_ argv: [String], environment: [String: String]) throws -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw LaunchError.emptyCommand }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setflags(&attr, Int16(posixSpawnSetSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        // posix_spawnp looks the name up in the PATH of *this* process: use the child's PATH.
        let resolved = resolve(program, path: environment["PATH"])
        let r = posix_spawn(&pid, resolved, &actions, &attr, cArgv, cEnv)
        guard r == 0 else { throw LaunchError.cannotStart(program, errno: r) }
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        return pid
    }

    /// glibc's POSIX_SPAWN_SETSID (spawn.h, since 2.26), not imported into Swift.
    static let posixSpawnSetSID: Int32 = 0x80

    /// An absolute path for `program` from `path` (the program itself when it has a `/`, or when
    /// nothing in PATH matches: posix_spawn then fails with ENOENT).
    static func resolve(_ program: String, path: String?) -> String {
        if program.contains("/") { return program }
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return program
    }
}
