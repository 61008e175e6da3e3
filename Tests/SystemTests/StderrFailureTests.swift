import Foundation
import Testing

/// Ring 3: a command whose stderr is closed or full still ends with its documented exit status.
/// Messages used to go through `FileHandle.write`, which traps when the write fails: the process
/// died of SIGILL (status 132) instead of exiting 1 or 3. `Stderr` now writes with write(2) and
/// drops what cannot be written.
@Suite struct StderrFailureTests {
    @Test("stderr closed or on /dev/full: the exit status is still the command's", arguments: [
        (["decode", "zz"], Int32(1)),                                      // bad input
        (["scan", "--reader", "no-such-reader-anywhere", "--timeout", "1"], Int32(3)),  // no reader matches
    ] as [([String], Int32)], ["2>&-", "2>/dev/full"])
    func exitStatusSurvivesAFailingStderr(command: ([String], Int32), redirection: String) throws {
        let (arguments, status) = command
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirection)", SystemEnvironment.cliPath] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == status)
    }
}
