import CoreNFCLinux
import Foundation
import NFCReaders
import NFCTags
import ReaderCore
import TagEmulation
import Testing

/// PC/SC for in-process sessions, as the CLI's default environment wires it, in a slot of its own.
enum TestPCSCEnvironment {
    static func make() -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [PCSCBackend()] }, makeNDEFOperations: { try $0.ndefOperations() },
                             slot: NFCSessionSlot())
    }
}

/// A vpcd card serving a virtual tag through an `EmulatedPCSCReader` (the generic personality of
/// `Virtual PCD 00 00`): inserting the `VPCDCard` is a tap, removing it takes the tag away.
final class EmulatedVPCDCard: VPCDCardBehaviour, Sendable {
    let reader: EmulatedPCSCReader

    init(tag: VirtualTag) {
        reader = EmulatedPCSCReader(profile: .generic, tag: tag)
    }

    var atr: [UInt8]? { reader.atr }
    func transmit(_ apdu: [UInt8]) -> [UInt8]? { reader.transmit(apdu) }
    func powerOn() { reader.reset() }
}

/// The CLI running in the background, its stderr watched line by line (for "✓ #n" confirmations).
// @unchecked: the vars are only touched with `condition` held (an NSCondition: the waits need a condition variable, which Mutex lacks)
final class LiveCLI: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var text = ""
    private var closed = false

    /// - Parameter launcher: a program that runs the CLI (`["/usr/bin/prlimit", "--fsize=300"]`);
    ///   empty = the CLI itself.
    init(_ args: [String], environment extra: [String: String] = [:], launcher: [String] = []) throws {
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [SystemEnvironment.cliPath] + args
        } else {
            process.executableURL = URL(fileURLWithPath: SystemEnvironment.cliPath)
            process.arguments = args
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.condition.lock()
            if data.isEmpty {
                handle.readabilityHandler = nil
                self.closed = true
            } else {
                self.text += String(decoding: data, as: UTF8.self)
            }
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
    }

    /// A test that failed half-way leaves no inventory running.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var stderr: String {
        condition.lock(); defer { condition.unlock() }
        return text
    }

    /// Waits until stderr contains `needle` (the deadline only stops a broken build from hanging).
    @discardableResult
    func waitFor(_ needle: String, deadline seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let limit = Date().addingTimeInterval(seconds)
        condition.lock(); defer { condition.unlock() }
        while !text.contains(needle) {
            if closed || !condition.wait(until: limit) {
                Issue.record("\"\(needle)\" never appeared on stderr: \(text)", sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit and for stderr to be read to its end; returns the exit status.
    func finish() -> Int32 {
        process.waitUntilExit()
        condition.lock()
        let limit = Date().addingTimeInterval(10)
        while !closed, condition.wait(until: limit) {}
        condition.unlock()
        return process.terminationStatus
    }

    /// The "✓ #n UID" confirmations printed so far: sequence number → UID as hex without colons.
    var confirmations: [Int: String] {
        var result: [Int: String] = [:]
        // The mark may follow other text on the same line (a progress line, a warning without a newline).
        for line in stderr.split(separator: "\n") {
            guard let mark = line.range(of: "✓ #") else { continue }
            let words = line[mark.upperBound...].split(separator: " ")
            guard words.count >= 2, let n = Int(words[0]) else { continue }
            result[n] = words[1].replacingOccurrences(of: ":", with: "")
        }
        return result
    }
}
