import Foundation
import NFCReaders  // Duration.timeInterval
import Pairing

/// Runs a program for the `exec` action: argv as given (no shell), an environment, bytes on
/// stdin; returns its exit status.
///
/// Pairing's exec hook (`ExecPairingHandler`) runs the `pair` action's programs with the same
/// rules; its spawner (`ProcessRunner`) is internal to Pairing, so generic tags go through this
/// seam (see `SpawnedProgramRunner`).
protocol ProgramRunning: Sendable {
    /// - Throws: `PairingError` `.commandNotFound`, `.commandNotStartable`, `.commandTimedOut`,
    ///   `.commandKilled` (the same errors, and messages, as the `pair` hook).
    func run(arguments: [String], environment: [String: String], input: [UInt8], timeout: Duration) throws -> Int32
}

/// Starts the program with Foundation's `Process` (posix_spawn, no shell); after `timeout` it
/// gets SIGTERM, then SIGKILL `killGrace` later.
///
/// Integration note: once Pairing's `ProcessRunner` is `package`, this type becomes a call to it
/// (process group, socket-pair stdin) and the two hooks share one spawner.
struct SpawnedProgramRunner: ProgramRunning {
    var killGrace: Duration = .seconds(2)

    func run(arguments: [String], environment: [String: String], input: [UInt8], timeout: Duration) throws -> Int32 {
        let name = arguments[0]
        guard let path = ProgramLookup.path(for: name, environment: environment) else {
            throw PairingError.commandNotFound(name)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let stdin = Pipe()
        process.standardInput = stdin
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            try process.run()
        } catch {
            throw PairingError.commandNotStartable(name, errno: Int32((error as NSError).code))
        }
        // SIGPIPE is ignored by the kiosk: a program that exits without reading gives EPIPE here.
        try? stdin.fileHandleForWriting.write(contentsOf: input)
        try? stdin.fileHandleForWriting.close()
        if done.wait(timeout: .now() + timeout.timeInterval) == .timedOut {
            kill(process.processIdentifier, SIGTERM)
            if done.wait(timeout: .now() + killGrace.timeInterval) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                done.wait()
            }
            throw PairingError.commandTimedOut(name, seconds: timeout.timeInterval)
        }
        if process.terminationReason == .uncaughtSignal {
            throw PairingError.commandKilled(name, signal: process.terminationStatus)
        }
        return process.terminationStatus
    }
}
