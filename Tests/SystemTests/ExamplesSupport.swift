import Foundation
import NDEF
import NFCTags
import PCSC
import TagEmulation
import Testing

/// One of the example programs (Examples/) running as a process, its output collected as it
/// comes so a test can act when the program reaches a point (the session is active, a line was
/// printed). Every wait has a deadline that only keeps a broken build from hanging the run.
// @unchecked: the vars are only touched with `condition` held (an NSCondition: the waits need a condition variable, which Mutex lacks)
final class ExampleProcess: @unchecked Sendable {
    let name: String
    private let process = Process()
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var out = Data()
    private var err = Data()
    private var openStreams = 2

    /// Starts `.build/<config>/<name> arguments…` (found next to the test bundle, like the CLI).
    init(_ name: String, _ arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: Self.path(of: name))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        collect(stdout.fileHandleForReading, isStderr: false)
        collect(stderr.fileHandleForReading, isStderr: true)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The executable of an example target.
    static func path(of name: String) -> String {
        let bundleDir = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [bundleDir.appendingPathComponent(name),
                          SystemEnvironment.packageRoot.appendingPathComponent(".build/debug/\(name)")] {
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        return SystemEnvironment.packageRoot.appendingPathComponent(".build/debug/\(name)").path
    }

    private func collect(_ handle: FileHandle, isStderr: Bool) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty {
                    openStreams -= 1
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                if isStderr { err.append(chunk) } else { out.append(chunk) }
                condition.broadcast()
                condition.unlock()
            }
        }
        thread.start()
    }

    var stdout: String {
        condition.lock(); defer { condition.unlock() }
        return String(decoding: out, as: UTF8.self)
    }

    var stderr: String {
        condition.lock(); defer { condition.unlock() }
        return String(decoding: err, as: UTF8.self)
    }

    /// Waits until stderr (alerts, the session's end) contains `text` `count` times.
    @discardableResult
    func waitForStderr(_ text: String, count: Int = 1, deadline: Double = 20,
                       sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        waitFor(deadline: deadline, sourceLocation: sourceLocation, "stderr to contain \"\(text)\" ×\(count)") {
            String(decoding: self.err, as: UTF8.self).components(separatedBy: text).count - 1 >= count
        }
    }

    /// Waits until stdout contains `text`.
    @discardableResult
    func waitForStdout(_ text: String, deadline: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        waitFor(deadline: deadline, sourceLocation: sourceLocation, "stdout to contain \"\(text)\"") {
            String(decoding: self.out, as: UTF8.self).contains(text)
        }
    }

    /// Waits until the session is polling: every example shows its alert message then.
    @discardableResult
    func waitUntilActive(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        waitForStderr("near the reader", sourceLocation: sourceLocation)
    }

    private func waitFor(deadline seconds: Double, sourceLocation: SourceLocation, _ what: String,
                         _ done: () -> Bool) -> Bool {
        let limit = Date().addingTimeInterval(seconds)
        condition.lock(); defer { condition.unlock() }
        while !done() {
            if openStreams == 0 || !condition.wait(until: limit) {
                if done() { return true }
                Issue.record("\(name): waited for \(what); stdout: \(String(decoding: out, as: UTF8.self)) stderr: \(String(decoding: err, as: UTF8.self))",
                             sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the program to exit and for its output to be complete; returns the exit status.
    /// A program still running at the deadline is killed and the test fails.
    func finish(deadline seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
        let limit = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < limit { usleep(10_000) }
        if process.isRunning {
            Issue.record("\(name) did not exit within \(seconds) s; stderr: \(stderr)", sourceLocation: sourceLocation)
            process.terminate()
        }
        process.waitUntilExit()
        condition.lock()
        while openStreams > 0 { _ = condition.wait(until: Date().addingTimeInterval(1)) }
        condition.unlock()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }
}

/// A virtual tag on one of the test pcscd's vpcd readers: an emulated PC/SC reader (generic,
/// the profile pcscd's "Virtual PCD" names map to) served by a vpcd card client.
final class VPCDTag {
    let tag: VirtualTag
    let reader: EmulatedPCSCReader
    let card: VPCDCard

    /// Creates the card; `insert()` puts it on the reader.
    init(_ tag: VirtualTag, port: UInt16, plan: FaultPlan = FaultPlan(), profile: PCSCReaderProfile = .generic) {
        self.tag = tag
        reader = EmulatedPCSCReader(profile: profile, tag: tag, plan: plan)
        card = VPCDCard(behaviour: reader, port: port)
    }

    var plan: FaultPlan { reader.plan }

    /// Connects to vpcd: pcscd sees a card at its next poll.
    @discardableResult
    func insert() throws -> VPCDTag {
        try card.insert()
        return self
    }

    func remove() { card.remove() }

    deinit { card.stop() }
}

/// Fixtures shared by the example and session tests.
enum ExampleFixtures {
    /// The NDEF bytes of `records` (the project's codec, strict).
    static func message(_ records: [NDEFRecord]) throws -> [UInt8] {
        try NDEFMessage(records: records).encoded()
    }

    /// An NTAG213 holding a URI and an English text record.
    static func ntag213(uri: String, text: String, uid: [UInt8] = VirtualType2Tag.defaultUID) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: uid,
                            ndef: message([.uri(uri), try .text(text, language: "en")]))
    }

    /// A Type 4 (v2 mapping) tag holding one URI record.
    static func type4(uri: String) throws -> VirtualType4Tag {
        VirtualType4Tag(ndef: try message([.uri(uri)]))
    }

    /// The NDEF message a Type 2 tag holds now, parsed from its memory image (CC at page 3, TLVs
    /// from page 4: lock/memory control TLVs skipped, then the NDEF TLV). nil when there is none.
    static func ndefMessage(in tag: VirtualType2Tag) -> [UInt8]? {
        let memory = tag.memory
        var i = 16
        while i < memory.count {
            let t = memory[i]
            if t == 0x00 { i += 1; continue }
            if t == 0xFE { return nil }
            guard i + 1 < memory.count else { return nil }
            var length = Int(memory[i + 1])
            var start = i + 2
            if length == 0xFF {
                guard i + 3 < memory.count else { return nil }
                length = Int(memory[i + 2]) << 8 | Int(memory[i + 3])
                start = i + 4
            }
            guard start + length <= memory.count else { return nil }
            if t == 0x03 { return Array(memory[start ..< start + length]) }
            i = start + length
        }
        return nil
    }
}
