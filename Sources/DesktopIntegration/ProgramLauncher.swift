import Foundation
import Glibc
import ProcessSpawn

/// Starts a program detached from the agent (argv as given, never through a shell): its own
/// session, stdin from /dev/null, stdout and stderr to the agent's stderr (the journal under
/// systemd). A thread reaps it when it exits.
public enum ProgramLauncher {
    /// Returns the child's pid.
    /// - Throws: `LaunchError.emptyCommand`, `.cannotStart` (e.g. ENOENT: not in PATH).
    @discardableResult
    public static func launch(_ argv: [String], environment: [String: String]) throws -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw LaunchError.emptyCommand }
        // posix_spawnp would look the name up in the PATH of *this* process: use the child's PATH.
        let spawn = Spawn(arguments: argv, environment: environment, detachment: .session,
                          fileActions: [.open("/dev/null", flags: O_RDONLY, as: 0), .duplicate(2, to: 1)],
                          executable: resolve(program, path: environment["PATH"]))
        let pid: pid_t
        switch Result(catching: { () throws(SpawnError) in try spawn.start() }) {
        case .success(let p): pid = p
        case .failure(.notFound): throw LaunchError.cannotStart(program, errno: ENOENT)
        case .failure(.cannotStart(_, let e)), .failure(.waitFailed(_, let e)): throw LaunchError.cannotStart(program, errno: e)
        case .failure(.invalidArgument): throw LaunchError.cannotStart(program, errno: EINVAL)
        case .failure(.emptyCommand): throw LaunchError.emptyCommand
        }
        Thread.detachNewThread {
            _ = try? ChildStatus.wait(pid, block: true)
        }
        return pid
    }

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
