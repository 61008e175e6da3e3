import CoreNFCLinux
import Dispatch
import Foundation

/// A multi-read session as `scan` runs it (no time limit, tag details), over the demo's
/// environment: every tag read comes out of `nextReport`.
package final class DemoReadSession: NFCNDEFReaderSessionDelegate {
    private enum Event {
        case report(NFCTagReport)
        case ended(NFCReaderError)
    }

    private var session: NFCNDEFReaderSession!
    private let inbox = DemoInbox<Event>()
    private let ended = DispatchSemaphore(value: 0)
    private let active = DispatchSemaphore(value: 0)

    package init(environment: NFCReaderEnvironment, alert: @escaping @Sendable (String) -> Void) {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.collectTagDetails = true
        configuration.readerFilter = .exactName(DemoTags.readerName)
        configuration.alertHandler = alert
        let inbox = self.inbox
        configuration.tagReportHandler = { report in
            inbox.put(.report(report))
            return true
        }
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false,
                                       configuration: configuration, environment: environment)
    }

    /// Starts polling, showing `prompt` as Core NFC's alert message; returns once the session is
    /// active (or ended: `nextReport` then says why).
    package func begin(prompt: String) {
        session.alertMessage = prompt
        session.begin()
        _ = active.wait(timeout: .now() + DemoStep.timeout)
    }

    /// The next tag read.
    /// - Throws: `DemoError` when the session ended or nothing was read within `timeout`.
    package func nextReport(timeout: TimeInterval) throws -> NFCTagReport {
        switch inbox.take(before: Date(timeIntervalSinceNow: timeout)) {
        case let .report(report)?: return report
        case let .ended(error)?: throw DemoError("the read session ended: \(error.localizedDescription)")
        case nil: throw DemoError("no tag was read within \(Int(timeout)) s")
        }
    }

    /// Ends the session and waits until it has (so the next session may begin). Idempotent.
    package func end() {
        session.invalidate()
        if ended.wait(timeout: .now() + DemoStep.timeout) == .success { ended.signal() }
    }

    package func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
        active.signal()
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        inbox.put(.ended(error as? NFCReaderError ?? NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly)))
        active.signal()
        ended.signal()
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
}
