import CoreNFCLinux
import Dispatch
import Foundation
import NDEF
import Synchronization

/// One `nfctap scan`: a read-only `NFCNDEFReaderSession` over the shared environment that reports
/// every tag with its details (`tagReportHandler`), printing the first complete read (or, with
/// `multi`, every read) and ending by itself, by the time limit or by a signal.
package final class ScanRun: NFCNDEFReaderSessionDelegate, Sendable {
    let json: Bool
    let multi: Bool
    let timeout: Double
    let readers: DeskReaders
    let prompt: Prompt
    let outcome = ScanOutcome()

    private struct State {
        /// Ends the session; dropped once it ended (the session's report handler holds this run).
        var endSession: (@Sendable () -> Void)?
        /// The last tag that could not be read: a timeout then says so instead of "no tag".
        var lastFailure: NFCTagReport?
    }

    private let state = Mutex(State())
    /// Where reports are formatted and printed, in order: the command's own queue, never the
    /// reader lane that read the tag (the report handler only decides and hands the value over).
    private let outputQueue = DispatchQueue(label: "nfctap.scan.output")

    package init(json: Bool, multi: Bool, timeout: Double, readers: DeskReaders) {
        self.json = json
        self.multi = multi
        self.timeout = timeout
        self.readers = readers
        prompt = Prompt(timeout: timeout > 0 ? timeout : nil)
    }

    /// Runs the session to its end and says how the command ends.
    package func run() -> ScanOutcome.Decision {
        var configuration = DeskSession.configuration(timeout: timeout, readers: readers, prompt: prompt)
        configuration.collectTagDetails = true
        // One read: the first complete report ends the scan, so a batch of several readers'
        // tags would report the same one later.
        if !multi { configuration.batchWindow = .zero }
        configuration.tagReportHandler = { [self] report in handle(report) }
        let session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false,
                                           configuration: configuration, environment: readers.environment)
        // NFCNDEFReaderSession is not Sendable (as in Apple's Core NFC); `invalidate()` is thread-safe.
        nonisolated(unsafe) let running = session
        state.withLock { $0.endSession = { running.invalidate() } }
        return DeskSession.run(session, outcome: outcome, prompt: prompt)
    }

    // MARK: NFCNDEFReaderSessionDelegate

    package func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
        prompt.start(Self.holdMessage(session.readersAtStart.map(\.name)), status: multi ? "waiting for tags" : "waiting for a tag")
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        // Everything is printed from the tag reports, which also cover tags without a message.
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        state.withLock { $0.endSession = nil }
        outputQueue.sync {}  // every report handed over is printed before the command ends
        let error = error as? NFCReaderError ?? NFCReaderError(.readerTransceiveErrorTagResponseError, message: "\(error)")
        let byUser = error.code == .readerSessionInvalidationErrorUserCanceled
        let fallback: ScanOutcome.Decision
        if multi, byUser || error.code == .readerSessionInvalidationErrorSessionTimeout {
            fallback = .success  // --multi ends normally by Ctrl-C or --timeout
        } else if error.code == .readerSessionInvalidationErrorSessionTimeout,
                  let failed = state.withLock({ $0.lastFailure }), let why = failed.error {
            fallback = .failure(CLIError("no tag could be read within \(ScanFailure.seconds(timeout)): the tag on "
                                         + "\(NDEFText.safe(failed.tag.reader.name)) failed: \(NDEFText.safe(why.message))",
                                         status: ExitStatus.noTag))
        } else if error.code == .readerSessionInvalidationErrorSessionTimeout,
                  let tag = session.lastDetectedTag {
            // A tag was there but its read had not ended (a card answering slowly, or not at all).
            fallback = .failure(CLIError("no tag could be read within \(ScanFailure.seconds(timeout)): the tag on "
                                         + "\(NDEFText.safe(tag.reader.name)) did not answer in time",
                                         status: ExitStatus.noTag))
        } else {
            fallback = .failure(ScanFailure.sessionEnded(error, timeout: timeout))
        }
        outcome.sessionEnded(fallback: fallback)
    }

    // MARK: Reports

    /// Prints the report (single scan: the first complete one, then ends the session). Returns
    /// whether the reader may confirm the tap (green + beep).
    private func handle(_ report: NFCTagReport) -> Bool {
        if multi {
            output(report)
            return report.completed
        }
        guard report.completed else {
            state.withLock { $0.lastFailure = report }
            prompt.message("Could not read the tag on \(NDEFText.safe(report.tag.reader.name)): "
                           + "\(NDEFText.safe(report.error?.message ?? "unknown error")). Hold it still…", .yellow)
            return false
        }
        guard outcome.decide(.success) else { return false }  // a second tag of the same batch
        output(report)
        // Invalidating only queues the session's end: nothing calls back here under the lock.
        state.withLock { $0.endSession?() }
        return true
    }

    private func output(_ report: NFCTagReport) {
        outputQueue.async { [json, prompt] in
            let text = json ? JSONDocument.line(TagReportJSON.object(report)) : TagReportJSON.lines(report).joined(separator: "\n")
            prompt.clear()
            print(text)
            StandardOutput.flush()
        }
    }

    /// "Hold a tag near A…", "Hold a tag near A or B…".
    package static func holdMessage(_ names: [String]) -> String {
        let safe = names.map(NDEFText.safe)
        switch safe.count {
        case 0: return "Hold a tag near the reader…"
        case 1: return "Hold a tag near \(safe[0])…"
        default: return "Hold a tag near \(safe.dropLast().joined(separator: ", ")) or \(safe.last!)…"
        }
    }
}
