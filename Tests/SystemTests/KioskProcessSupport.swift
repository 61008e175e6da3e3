import Foundation
import NFCTapKitTestSupport
import Testing

/// `nfctap kiosk` running as a process, as systemd runs it: its stderr (the log) collected line by
/// line, signals sent to it, its exit status. Waits have deadlines only so that a broken build
/// fails instead of hanging; they are not what a test asserts.
// @unchecked: the vars are only touched with `condition` held (an NSCondition: the waits need a condition variable, which Mutex lacks)
final class KioskProcess: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var buffer = Data()
    private var _lines: [String] = []
    private let errPipe = Pipe()

    /// - Parameter launcher: a program that runs the CLI (its arguments first, then the CLI's
    ///   path and `arguments`); empty = the CLI itself.
    init(arguments: [String], environment extra: [String: String] = [:], launcher: [String] = []) throws {
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [SystemEnvironment.cliPath] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: SystemEnvironment.cliPath)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        process.environment = env
        process.standardError = errPipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        errPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.append(data)
        }
        try process.run()
    }

    private func append(_ data: Data) {
        condition.withLock {
            buffer.append(data)
            while let nl = buffer.firstIndex(of: 0x0A) {
                _lines.append(String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...nl)
            }
            condition.broadcast()
        }
    }

    var lines: [String] { condition.withLock { _lines } }

    /// Waits for `count` log lines satisfying `match` in all; returns how many there are.
    @discardableResult
    func waitForLog(_ what: String, count: Int = 1, timeout: TimeInterval = 30,
                    sourceLocation: SourceLocation = #_sourceLocation, _ match: (String) -> Bool) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while true {
                let n = _lines.filter(match).count
                if n >= count { return n }
                if !condition.wait(until: deadline) {
                    Issue.record("kiosk never logged \(count) × \(what); log:\n\(_lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
                    return n
                }
            }
        }
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate(sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("kiosk did not exit after SIGTERM", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        errPipe.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Waits until the JSON lines file has `count` lines; returns them.
@discardableResult
func waitForJSONLines(_ path: String, count: Int, timeout: TimeInterval = 30,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let lines = try jsonLines(path)
        if lines.count >= count || Date() >= deadline {
            if lines.count < count { Issue.record("\(path) has \(lines.count) lines, expected \(count)", sourceLocation: sourceLocation) }
            return lines
        }
        usleep(20_000)
    }
}
