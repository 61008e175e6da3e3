import Foundation
import Testing

/// `nfctap`'s main thread waits in `pause()` while the command runs as a task
/// (docs/architecture.md "Start-up"). An `async` main parked it in `dispatch_main` instead, whose
/// `pthread_exit` unwinds the thread through the binary's unwind tables before it sleeps in
/// `sigsuspend`: 1.1 MiB of them resident in every process. Checked on a running
/// `fleet forward` with no broker to reach (it retries until SIGTERM, then ends with status 0).
@Suite struct MainThreadTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: SystemEnvironment.cliPath), "needs the built nfctap"))
    func mainThreadWaitsInPauseNotInDispatchMain() throws {
        let dir = NSTemporaryDirectory() + "nfctap-main-thread-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/records.jsonl"
        try Data("{\"seq\":1}\n".utf8).write(to: URL(fileURLWithPath: file))
        // Port 1 on loopback refuses at once: the forwarder keeps retrying, so the process lives.
        let forward = try startForward(file: file, url: "mqtt://127.0.0.1:1/records")
        defer { forward.stop() }
        #expect(LineProcess.waitUntil(10) { forward.stderr.contains("cannot connect") }, "\(forward.stderr)")
        let pid = forward.process.processIdentifier
        // The main thread's current system call: its number first (x86_64: 34 pause, 130 rt_sigsuspend).
        let syscall = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/syscall", encoding: .utf8)
        #if arch(x86_64)
        #expect(syscall.split(separator: " ").first == "34", "main thread not in pause(): \(syscall)")
        #endif
        forward.stop()
        #expect(forward.process.terminationStatus == 0, "\(forward.stderr)")
    }
}
