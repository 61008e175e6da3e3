import Foundation
@testable import Pairing
import Testing

/// An exec program's background children never outlive it: its whole process group is ended
/// when it exits or times out.
@Suite("exec programs: the process group is ended")
struct ProcessGroupTests {
    /// Whether `pid` is still running (a zombie waiting for init counts as ended).
    static func running(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    static func backgroundChild(script: String, timeout: Duration) throws -> (status: Result<Int32, any Error>, child: pid_t, elapsed: Duration) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("child").path
        var runner = ProcessRunner(arguments: ["/bin/sh", "-c", script, "sh", pidFile], environment: [:], input: [],
                                   timeout: timeout)
        runner.killGrace = .milliseconds(500)
        let clock = ContinuousClock()
        let start = clock.now
        let status = Result { try runner.run() }
        let elapsed = clock.now - start
        let child = pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))!
        return (status, child, elapsed)
    }

    @Test("a program that exits leaving `sleep &` behind: the sleep is ended too")
    func exitEndsGroup() throws {
        let r = try Self.backgroundChild(script: "sleep 30 & echo $! > \"$1\"; exit 0", timeout: .seconds(10))
        #expect(try r.status.get() == 0)
        #expect(!Self.running(r.child))
        #expect(r.elapsed < .seconds(5))
    }

    @Test("a background child that ignores SIGTERM is killed after the grace period")
    func stubbornChildKilled() throws {
        let r = try Self.backgroundChild(script: "trap '' TERM; sh -c 'trap \"\" TERM; sleep 30' & echo $! > \"$1\"; exit 3",
                                         timeout: .seconds(10))
        #expect(try r.status.get() == 3)
        // The killed child may take a moment to be collected by the kernel.
        let deadline = Date(timeIntervalSinceNow: 2)
        while Self.running(r.child), Date() < deadline { usleep(10_000) }
        #expect(!Self.running(r.child))
    }

    @Test("a program that times out: its background child is ended with it")
    func timeoutEndsGroup() throws {
        let r = try Self.backgroundChild(script: "sleep 30 & echo $! > \"$1\"; sleep 30", timeout: .milliseconds(300))
        #expect(throws: PairingError.self) { try r.status.get() }
        let deadline = Date(timeIntervalSinceNow: 2)
        while Self.running(r.child), Date() < deadline { usleep(10_000) }
        #expect(!Self.running(r.child))
    }

    @Test("a program with nothing left behind returns at once")
    func nothingLeft() throws {
        let r = try Self.backgroundChild(script: "echo $$ > \"$1\"; exit 0", timeout: .seconds(10))
        #expect(try r.status.get() == 0)
        #expect(r.elapsed < .milliseconds(400))
    }
}
