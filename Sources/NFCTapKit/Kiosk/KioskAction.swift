import CoreNFCLinux
import Logging

/// What the kiosk does with each tag (`json`, `exec`, `pair`). Called on the session's queue,
/// one tag at a time, before the reader's feedback; a reload hands the next one over from the
/// signal thread.
package protocol KioskAction: AnyObject, Sendable {
    /// Handles one tap. Never throws: a failure is a result (red LED, logged).
    func handle(_ report: NFCTagReport) -> KioskActionResult
    /// Releases what the action holds (its output file); called when a reload replaces it or at stop.
    func close()
}

/// How one tap went: `succeeded` decides green + beep or red; the rest goes into the log line.
package struct KioskActionResult: Sendable {
    package var succeeded: Bool
    /// A few words (`line written`, `exit status 3`, `not a Zebra printer tag`).
    package var summary: String
    package var metadata: Logger.Metadata = [:]

    package static func success(_ summary: String, _ metadata: Logger.Metadata = [:]) -> Self {
        Self(succeeded: true, summary: summary, metadata: metadata)
    }

    package static func failure(_ summary: String, _ metadata: Logger.Metadata = [:]) -> Self {
        Self(succeeded: false, summary: summary, metadata: metadata)
    }
}

extension KioskConfiguration {
    /// Builds the action the configuration names, opening its output.
    /// - Throws: `RecordFileError` when the output file cannot be opened.
    package func makeAction(runner: any ProgramRunning = SpawnedProgramRunner()) throws -> any KioskAction {
        switch action {
        case .json:
            return JSONLineAction(output: try KioskOutput.open(output, sync: sync))
        case let .exec(arguments):
            return ExecTagAction(arguments: arguments, timeout: commandTimeout, runner: runner)
        case let .pair(with):
            return try PairTagAction(with: with, options: pairingOptions, output: output, sync: sync)
        }
    }
}
