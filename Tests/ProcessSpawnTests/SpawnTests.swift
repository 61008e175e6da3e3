import Glibc
import ProcessSpawn
import Testing

@Suite("posix_spawn set up once: exit status, group or session, typed failures")
struct SpawnTests {
    static let path = ["PATH": "/usr/bin:/bin"]

    static func run(_ spawn: Spawn) throws -> ChildStatus? {
        let pid = try spawn.start()
        return try ChildStatus.wait(pid, block: true)
    }

    @Test func trueExitsZero() throws {
        #expect(try Self.run(Spawn(arguments: ["/bin/true"], environment: [:], detachment: .processGroup)) == .exited(0))
    }

    @Test func anExitCodeComesBack() throws {
        let spawn = Spawn(arguments: ["/bin/sh", "-c", "exit 3"], environment: [:], detachment: .processGroup)
        #expect(try Self.run(spawn) == .exited(3))
    }

    @Test func aNameIsLookedUpInPATH() throws {
        let spawn = Spawn(arguments: ["sh", "-c", "exit 7"], environment: Self.path, detachment: .session)
        #expect(try Self.run(spawn) == .exited(7))
    }

    @Test func theEnvironmentIsExactlyTheOneGiven() throws {
        let spawn = Spawn(arguments: ["/bin/sh", "-c", "[ \"$NFCTAP_X\" = 'a b' ] && [ -z \"$HOME\" ]"],
                          environment: ["NFCTAP_X": "a b"], detachment: .processGroup)
        #expect(try Self.run(spawn) == .exited(0))
    }

    @Test func argv0IsKeptWhenTheExecutableIsGiven() throws {
        let spawn = Spawn(arguments: ["custom-name", "-c", "[ \"$0\" = custom-name ]"], environment: [:],
                          detachment: .processGroup, executable: "/bin/sh")
        #expect(try Self.run(spawn) == .exited(0))
    }

    @Test("the child leads a new process group, and a signal to the group ends it")
    func processGroup() throws {
        let pid = try Spawn(arguments: ["/bin/sleep", "30"], environment: [:], detachment: .processGroup).start()
        #expect(getpgid(pid) == pid)
        #expect(getsid(pid) == getsid(0))
        kill(-pid, SIGTERM)
        #expect(try ChildStatus.wait(pid, block: true) == .killed(signal: SIGTERM))
    }

    @Test("the child leads a new session (and so its own group)")
    func session() throws {
        let pid = try Spawn(arguments: ["/bin/sleep", "30"], environment: [:], detachment: .session).start()
        #expect(getsid(pid) == pid)
        #expect(getpgid(pid) == pid)
        #expect(try ChildStatus.wait(pid, block: false) == nil)
        kill(pid, SIGKILL)
        #expect(try ChildStatus.wait(pid, block: true) == .killed(signal: SIGKILL))
    }

    @Test("signals the parent ignores are back to default in the child")
    func signalsAreReset() throws {
        let previous = signal(SIGTERM, SIG_IGN)
        defer { signal(SIGTERM, previous) }
        let pid = try Spawn(arguments: ["/bin/sleep", "30"], environment: [:], detachment: .processGroup).start()
        kill(pid, SIGTERM)
        #expect(try ChildStatus.wait(pid, block: true) == .killed(signal: SIGTERM))
    }

    @Test("file actions: stdin from /dev/null, stdout onto a pipe")
    func fileActions() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let spawn = Spawn(arguments: ["/bin/sh", "-c", "if read line; then echo got; else echo eof; fi"], environment: [:],
                          detachment: .processGroup,
                          fileActions: [.open("/dev/null", flags: O_RDONLY, as: 0), .duplicate(fds[1], to: 1)])
        let started = Result { () throws(SpawnError) in try spawn.start() }
        close(fds[1])
        let pid = try started.get()
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(fds[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "eof\n")
        #expect(try ChildStatus.wait(pid, block: true) == .exited(0))
    }

    @Test("a missing program is .notFound", arguments: [
        "/nonexistent/nfctap-no-such-program", "nfctap-no-such-program", "/bin/true/not-a-dir",
    ])
    func missing(program: String) {
        #expect(throws: SpawnError.notFound(program)) {
            try Spawn(arguments: [program], environment: Self.path, detachment: .processGroup).start()
        }
    }

    @Test func aFileThatCannotRunIsCannotStart() {
        #expect(throws: SpawnError.cannotStart("/dev/null", errno: EACCES)) {
            try Spawn(arguments: ["/dev/null"], environment: [:], detachment: .processGroup).start()
        }
    }

    @Test func emptyAndNulArgumentsAreRefused() {
        #expect(throws: SpawnError.emptyCommand) {
            try Spawn(arguments: [], environment: [:], detachment: .processGroup).start()
        }
        #expect(throws: SpawnError.emptyCommand) {
            try Spawn(arguments: [""], environment: [:], detachment: .processGroup).start()
        }
        #expect(throws: SpawnError.invalidArgument("/bin/echo", "a…")) {
            try Spawn(arguments: ["/bin/echo", "a\0b"], environment: [:], detachment: .processGroup).start()
        }
    }

    @Test func waitingForANonChildIsATypedError() {
        #expect(throws: SpawnError.waitFailed(1, errno: ECHILD)) { try ChildStatus.wait(1, block: false) }
    }

    @Test("wait statuses decode like WEXITSTATUS / WTERMSIG", arguments: [
        (Int32(0), ChildStatus.exited(0)), (3 << 8, .exited(3)), (255 << 8, .exited(255)), (9, .killed(signal: 9)),
        (15 | 0x80, .killed(signal: 15)),   // core dumped
    ])
    func decode(raw: Int32, expected: ChildStatus) {
        #expect(ChildStatus(waitStatus: raw) == expected)
    }
}
