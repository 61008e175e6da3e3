import Foundation
import ReaderCore
import Testing
import TestSupport

/// Runs one of libnfc's tools with extra environment and a hard timeout (a hang fails the test).
func runLibNFCTool(_ tool: String, _ args: [String], environment extra: [String: String],
                   timeout: TimeInterval = 30) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
    process.arguments = args
    var env = ProcessInfo.processInfo.environment
    for (k, v) in extra { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let group = DispatchGroup()
    let outData = Locked(Data()), errData = Locked(Data())
    group.enter(); DispatchQueue.global().async { outData.withLock { $0 = out.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    group.enter(); DispatchQueue.global().async { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        process.terminate()
        Issue.record("\(tool) \(args.joined(separator: " ")) did not finish within \(timeout) s")
    }
    process.waitUntilExit()
    group.wait()
    return CLIResult(status: process.terminationStatus,
                     stdout: String(decoding: outData.current, as: UTF8.self),
                     stderr: String(decoding: errData.current, as: UTF8.self))
}

/// A fresh temporary directory for one test.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-pn532-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Collects reader events from the monitor thread; tests wait for the next matching one.
// @unchecked: the vars are only touched with `condition` held (an NSCondition: the waits need a condition variable, which Mutex lacks)
final class ReaderEventRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [ReaderEvent] = []
    private var cursor = 0

    var handler: @Sendable (ReaderEvent) -> Void {
        { [self] event in condition.withLock { events.append(event); condition.broadcast() } }
    }

    /// The next event after the previous match that satisfies `matches`, waiting up to `timeout`
    /// (a safety net against hangs, not a timing assertion). Records an issue when none comes.
    func next(_ what: String, timeout: TimeInterval = 15,
              _ matches: (ReaderEvent) -> Bool) -> ReaderEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while true {
                while cursor < events.count {
                    let event = events[cursor]
                    cursor += 1
                    if matches(event) { return event }
                }
                if !condition.wait(until: deadline) {
                    Issue.record("no \(what) event within \(timeout) s; saw \(events)")
                    return nil
                }
            }
        }
    }
}
