import Glibc

/// One posix_spawn setup for every program nfctap starts (the exec hook, the kiosk, the desktop
/// agent): argv as given, never through a shell; an explicit environment; every signal back to
/// its default disposition and none blocked (nfctap's own handlers and masks must not leak into
/// the child); the child in a group or session of its own, so it and what it starts can be
/// stopped together, or detached from nfctap's terminal.
package struct Spawn: Sendable {
    /// Where the child lives relative to nfctap.
    package enum Detachment: Sendable, Equatable {
        /// Leader of a new process group (`POSIX_SPAWN_SETPGROUP`, group 0): `kill(-pid, …)` reaches
        /// it and everything it starts.
        case processGroup
        /// Leader of a new session (`POSIX_SPAWN_SETSID`): no controlling terminal, and its own
        /// process group too.
        case session
    }

    /// What the child's file descriptors are set to before it runs, in order.
    package enum FileAction: Sendable, Equatable {
        /// `dup2(source, target)`.
        case duplicate(Int32, to: Int32)
        /// `open(path, flags)` as descriptor `fd`.
        case open(String, flags: Int32, as: Int32)
    }

    /// The program (`arguments[0]`) and its arguments.
    package var arguments: [String]
    package var environment: [String: String]
    package var detachment: Detachment
    package var fileActions: [FileAction]
    /// The file to run, as given (`posix_spawn`), e.g. after looking the name up in the child's
    /// own PATH; nil: `arguments[0]`, a name without `/` looked up in nfctap's PATH (`posix_spawnp`).
    /// `arguments[0]` is the child's argv[0] either way.
    package var executable: String?

    package init(arguments: [String], environment: [String: String], detachment: Detachment,
                 fileActions: [FileAction] = [], executable: String? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.detachment = detachment
        self.fileActions = fileActions
        self.executable = executable
    }

    /// Starts the program. Returns the child's pid (the caller waits for it: `ChildStatus.wait`).
    /// - Throws: `SpawnError.emptyCommand`, `.notFound` (ENOENT/ENOTDIR), `.cannotStart` with
    ///   posix_spawn's errno (EACCES, ENOEXEC, …), `.invalidArgument` for a NUL byte in an
    ///   argument, a variable or a path (it would be cut short).
    package func start() throws(SpawnError) -> pid_t {
        guard let program = arguments.first, !program.isEmpty else { throw .emptyCommand }
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        for text in arguments + variables + [executable ?? ""] where text.utf8.contains(0) {
            throw .invalidArgument(program, text.prefix { $0 != "\0" } + "…")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for action in fileActions {
            switch action {
            case .duplicate(let source, let target):
                posix_spawn_file_actions_adddup2(&actions, source, target)
            case .open(let path, let flags, let fd):
                guard !path.utf8.contains(0) else { throw .invalidArgument(program, path) }
                posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0)
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        switch detachment {
        case .processGroup:
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        case .session:
            flags |= Self.posixSpawnSetSID
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let r = executable.map { posix_spawn(&pid, $0, &actions, &attributes, argv, envp) }
            ?? posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard r == 0 else {
            if r == ENOENT || r == ENOTDIR { throw .notFound(program) }
            throw .cannotStart(program, errno: r)
        }
        return pid
    }

    /// glibc's POSIX_SPAWN_SETSID (spawn.h, since 2.26), not imported into Swift.
    static let posixSpawnSetSID: Int32 = 0x80
}

/// Why a program did not start, or could not be waited for.
package enum SpawnError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyCommand
    /// No such program (ENOENT or ENOTDIR from posix_spawn).
    case notFound(String)
    /// posix_spawn failed with this errno.
    case cannotStart(String, errno: Int32)
    /// An argument, variable or path holds a NUL byte.
    case invalidArgument(String, String)
    /// waitpid failed (ECHILD: not our child, or already reaped).
    case waitFailed(pid_t, errno: Int32)

    package var description: String {
        switch self {
        case .emptyCommand: return "the command is empty"
        case .notFound(let p): return "\(p): no such program"
        case .cannotStart(let p, let e): return "\(p): cannot start: \(String(cString: strerror(e)))"
        case .invalidArgument(let p, let text): return "\(p): a NUL byte in \"\(text)\""
        case .waitFailed(let pid, let e): return "waiting for process \(pid): \(String(cString: strerror(e)))"
        }
    }
}
