import SafeText
import CoreNFCLinux
import Foundation
import NDEF
import RecordOutput

/// One `nfctap scan`: a read-only `NFCNDEFReaderSession` that reports every tag with its details
/// (`.tagReport` events), printing the first complete read (or, with `multi`, every read) and
/// ending by itself, by the time limit or by a signal.
package struct ScanRun: Sendable {
    let json: Bool
    let multi: Bool
    let timeout: Double
    let readers: DeskReaders
    let prompt: Prompt

    package init(json: Bool, multi: Bool, timeout: Double, readers: DeskReaders) {
        self.json = json
        self.multi = multi
        self.timeout = timeout
        self.readers = readers
        prompt = Prompt(timeout: timeout > 0 ? timeout : nil)
    }

    /// Runs the session to its end.
    /// - Throws: how the command fails (a tag answering with data nfctap refuses: exit 1; no tag
    ///   before `--timeout`: 2; no reader: 3; interrupted: 130).
    package func run() async throws(CLIError) {
        let verdict = ScanVerdict(multi: multi)
        var configuration = DeskSession.configuration(timeout: timeout, readers: readers, prompt: prompt)
        configuration.collectTagDetails = true
        // One read: the first complete report ends the scan, so a batch of several readers'
        // tags would report the same one later.
        if !multi { configuration.batchWindow = .zero }
        configuration.tagReportHandler = { verdict.confirm($0) }
        let session = NFCNDEFReaderSession(invalidateAfterFirstRead: false, configuration: configuration,
                                           environment: readers.environment)
        var printed = false
        /// The tag answered with data nfctap refuses: printed, then exit 1 (docs/faults.md "Lost, malformed").
        var refused: NFCTagReport?
        /// The last tag that could not be read: a timeout then says so instead of "no tag".
        var lastFailure: NFCTagReport?
        let ending = await DeskSession.run(session, prompt: prompt) { event in
            switch event {
            case let .becameActive(readers):
                prompt.start(Self.holdMessage(readers.map(\.name)), status: multi ? "waiting for tags" : "waiting for a tag")
            case let .tagReport(report):
                if multi { return output(report) }
                if !printed, verdict.isWinner(report) {
                    printed = true
                    output(report)
                    if !report.completed { refused = report }
                    session.invalidate()
                } else if !report.completed {
                    lastFailure = report
                    prompt.message("Could not read the tag on \(SafeText.escaped(report.tag.reader.name)): "
                                   + "\(SafeText.escaped(report.error?.message ?? "unknown error")). Hold it still…", .yellow)
                }
            default:
                break
            }
        }
        if let refused {
            throw CLIError("the tag on \(SafeText.escaped(refused.tag.reader.name)) answered with data nfctap refuses: "
                           + SafeText.escaped(refused.error?.message ?? "unknown error"), status: ExitStatus.failure)
        }
        if printed { return }
        let error = ending.code
        if multi {
            // --multi ends normally by Ctrl-C or --timeout.
            if error.code == .readerSessionInvalidationErrorUserCanceled || error.code == .readerSessionInvalidationErrorSessionTimeout { return }
        } else if error.code == .readerSessionInvalidationErrorSessionTimeout, let failed = lastFailure, let why = failed.error {
            throw CLIError("no tag could be read within \(ScanFailure.seconds(timeout)): the tag on "
                           + "\(SafeText.escaped(failed.tag.reader.name)) failed: \(SafeText.escaped(why.message))",
                           status: ExitStatus.noTag)
        } else if error.code == .readerSessionInvalidationErrorSessionTimeout, let tag = session.lastDetectedTag {
            // A tag was there but its read had not ended (a card answering slowly, or not at all).
            throw CLIError("no tag could be read within \(ScanFailure.seconds(timeout)): the tag on "
                           + "\(SafeText.escaped(tag.reader.name)) did not answer in time",
                           status: ExitStatus.noTag)
        }
        throw ScanFailure.sessionEnded(error, timeout: timeout)
    }

    /// Formats and prints on the consumer's side (the event loop), never on a reader lane.
    private func output(_ report: NFCTagReport) {
        let text = json ? JSONDocument.line(TagReportJSON.object(report)) : TagReportJSON.lines(report).joined(separator: "\n")
        prompt.clear()
        Stdout.line(text)
        StandardOutput.flush()
    }

    /// "Hold a tag near A…", "Hold a tag near A or B…".
    package static func holdMessage(_ names: [String]) -> String {
        let safe = names.map { SafeText.escaped($0) }
        switch safe.count {
        case 0: return "Hold a tag near the reader…"
        case 1: return "Hold a tag near \(safe[0])…"
        default: return "Hold a tag near \(safe.dropLast().joined(separator: ", ")) or \(safe.last!)…"
        }
    }
}
