import Foundation
import NDEF
import NFCTags
import Synchronization
import TagEmulation
import Testing

/// A virtual tag in one of the test pcscd's vpcd readers, through the project's PC/SC reader
/// emulation, so a test can look at the tag's memory after the CLI wrote to it.
final class TagOnReader {
    let tag: VirtualTag
    let card: VPCDCard

    /// Puts `tag` on `Virtual PCD 00 0<reader>`.
    init(_ tag: VirtualTag, reader: Int = 0, personality: EmulatedPCSCReader? = nil) throws {
        self.tag = tag
        card = VPCDCard(behaviour: personality ?? EmulatedPCSCReader(tag: tag), port: reader == 0 ? TestPCSCD.port0 : TestPCSCD.port1)
        try card.insert()
    }

    func remove() { card.remove() }

    deinit { card.stop() }
}

/// `nfctap` running in the background: stdout read line by line while the test acts, stderr
/// collected; every wait has a deadline that only keeps a broken build from hanging the run.
// @unchecked: the vars are only touched with `condition` held (an NSCondition: the waits need a condition variable, which Mutex lacks)
final class CLIProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private var stdoutBuffer = Data()
    private var stdoutClosed = false
    private var stderrData = Data()
    private let readers = DispatchGroup()

    init(_ args: [String], environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: SystemEnvironment.cliPath)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        pump(out.fileHandleForReading) { $0.stdoutBuffer += $1 } closed: { $0.stdoutClosed = true }
        pump(err.fileHandleForReading) { $0.stderrData += $1 } closed: { _ in }
    }

    /// Reads `handle` on a background thread until end of file, appending under the lock.
    private func pump(_ handle: FileHandle, append: @escaping @Sendable (CLIProcess, Data) -> Void,
                      closed: @escaping @Sendable (CLIProcess) -> Void) {
        readers.enter()
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                condition.withLock {
                    if chunk.isEmpty { closed(self) } else { append(self, chunk) }
                    condition.broadcast()
                }
                if chunk.isEmpty { break }
            }
            readers.leave()
        }
    }

    /// Waits until stderr contains `text` (e.g. the prompt: the session is listening).
    func waitForStderr(_ text: String, deadline seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) {
        let limit = Date().addingTimeInterval(seconds)
        condition.withLock {
            while !String(decoding: stderrData, as: UTF8.self).contains(text) {
                if !condition.wait(until: limit) {
                    Issue.record("stderr never showed \"\(text)\": \(String(decoding: stderrData, as: UTF8.self))",
                                 sourceLocation: sourceLocation)
                    return
                }
            }
        }
    }

    /// The complete stdout lines so far.
    var lines: [String] {
        condition.withLock { Self.completeLines(stdoutBuffer) }
    }

    private static func completeLines(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var parts = text.components(separatedBy: "\n")
        parts.removeLast()  // after the last newline: an unfinished line (or "")
        return parts
    }

    /// Waits until stdout has at least `count` complete lines; returns them.
    @discardableResult
    func waitForLines(_ count: Int, deadline seconds: Double = 30,
                      sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let limit = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while Self.completeLines(stdoutBuffer).count < count {
                if stdoutClosed || !condition.wait(until: limit) {
                    Issue.record("expected \(count) stdout lines, got \(Self.completeLines(stdoutBuffer))",
                                 sourceLocation: sourceLocation)
                    break
                }
            }
            return Self.completeLines(stdoutBuffer)
        }
    }

    /// Sends SIGINT (Ctrl-C).
    func interrupt() { process.interrupt() }

    /// The process id (to send other signals).
    var pid: Int32 { process.processIdentifier }

    /// Waits for the process to exit; kills it after `seconds`.
    func finish(deadline seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) -> CLIResult {
        let limit = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < limit { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            Issue.record("nfctap did not exit within \(seconds) s", sourceLocation: sourceLocation)
        }
        process.waitUntilExit()
        readers.wait()
        return condition.withLock {
            CLIResult(status: process.terminationStatus,
                      stdout: String(decoding: stdoutBuffer, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
        }
    }
}

/// `scan --json` output, field by field.
struct ScanJSON: Decodable, Equatable {
    struct Record: Decodable, Equatable {
        var tnf: Int
        var type: String
        var payload: String
        var uri: String?
        var text: String?
        var language: String?
        var mime: String?
    }
    var records: [Record]?
    var uid: String
    var type: String
    var product: String?
    /// Only where the chip was not identified (vpcd's generic reader cannot pass GET_VERSION).
    var productGuess: String?
    var capacity: Int?
    var writable: Bool?
    var reader: String
    var error: String?
    var errorCode: Int?

    /// Decodes one JSON object (one line of output).
    static func decode(_ line: String) throws -> ScanJSON {
        try JSONDecoder().decode(ScanJSON.self, from: Data(line.utf8))
    }
}

/// `write --json` output.
struct WriteJSON: Decodable, Equatable {
    var written: Int
    var capacity: Int
    var locked: Bool
    var uid: String?
    var type: String?
    var reader: String?
}

/// Fixed vectors, written out by hand from the NFC Forum RTDs so the CLI's encoder is checked
/// against them rather than against itself.
enum ScanVectors {
    /// URI record `https://nfctap.dev/w`: MB ME SR TNF 1, type `U`, prefix 04 (`https://`).
    static let uriMessage = [UInt8](hex: "D1 01 0D 55 04 6E 66 63 74 61 70 2E 64 65 76 2F 77")!
    static let uri = "https://nfctap.dev/w"
    /// Text record `hej` in `sv`: status 02 (UTF-8, 2-byte language code).
    static let textMessage = [UInt8](hex: "D1 01 06 54 02 73 76 68 65 6A")!

    static let reader0 = TestPCSCD.reader0
    static let reader1 = TestPCSCD.reader1

    /// A Type 2 UID per test (7 bytes, manufacturer 04).
    static func uid(_ n: UInt8) -> [UInt8] { [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, n] }
}

/// A vpcd card that tears writes: the tag answers up to `writesAllowed` writes (Type 2 UPDATE
/// BINARY `FF D6`, Type 4 `00 D6`), then leaves the field before the next one reaches it.
final class TearingReader: VPCDCardBehaviour, Sendable {
    let reader: EmulatedPCSCReader
    private let state: Mutex<(writesLeft: Int, gone: Bool)>

    init(tag: VirtualTag, writesAllowed: Int) {
        reader = EmulatedPCSCReader(tag: tag)
        state = Mutex((writesLeft: writesAllowed, gone: false))
    }

    var atr: [UInt8]? { state.withLock { $0.gone } ? nil : reader.atr }

    func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        let pass: Bool = state.withLock {
            guard !$0.gone else { return false }
            if apdu.count >= 2, apdu[0] == 0xFF || apdu[0] == 0x00, apdu[1] == 0xD6 {
                if $0.writesLeft == 0 { $0.gone = true; return false }
                $0.writesLeft -= 1
            }
            return true
        }
        return pass ? reader.transmit(apdu) : nil
    }

    func powerOn() { reader.powerOn() }
}
