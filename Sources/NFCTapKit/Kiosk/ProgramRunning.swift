import Foundation
import NFCReaders  // Duration.timeInterval
import Pairing

/// Runs a program for the `exec` action: argv as given (no shell), an environment, bytes on
/// stdin; returns its exit status.
///
/// A seam for tests; production runs programs through Pairing's spawner, the same as the
/// `pair` hook (`ExecPairingHandler`), so both hooks follow one set of rules.
package protocol ProgramRunning: Sendable {
    /// - Throws: `PairingError` `.commandNotFound`, `.commandNotStartable`, `.commandTimedOut`,
    ///   `.commandKilled` (the same errors, and messages, as the `pair` hook).
    func run(arguments: [String], environment: [String: String], input: [UInt8], timeout: Duration) throws -> Int32
}

package struct SpawnedProgramRunner: ProgramRunning {
    package var killGrace: Duration = .seconds(2)

    /// Pairing's runner: posix_spawn without a shell, the program in its own process group, so a
    /// timeout stops it and everything it started (SIGTERM to the group, SIGKILL after `killGrace`).
    package func run(arguments: [String], environment: [String: String], input: [UInt8], timeout: Duration) throws -> Int32 {
        var runner = ProcessRunner(arguments: arguments, environment: environment, input: input, timeout: timeout)
        runner.killGrace = killGrace
        return try runner.run()
    }
}
