import CoreNFCLinux
import Dispatch
import Foundation
import Synchronization

/// The agent's reader session: an `NFCNDEFReaderSession` that reads every tag on every reader
/// (matching `--reader`) without time limit, survives readers and pcscd coming and going, and
/// does not pause itself (`pausesBackgroundReading` = false). Reports go to `inbox`.
// @unchecked: `session` (not Sendable, as in Apple's Core NFC) is set once in `init`; its
// methods are thread-safe. The end error is behind a Mutex.
package final class AgentReader: NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    private var session: NFCNDEFReaderSession!
    private let ended = DispatchSemaphore(value: 0)
    private let endError = Mutex<NFCReaderError?>(nil)

    package init(filter: NFCReaderFilter, inbox: AgentInbox) {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.readerFilter = filter
        configuration.readerRemovalEndsSession = false
        configuration.collectTagDetails = true
        configuration.pausesBackgroundReading = false
        configuration.alertHandler = { _ in }
        configuration.tagReportHandler = { report in
            inbox.post(report)
            return report.completed
        }
        // The session holds its delegate weakly; the runner keeps this object while it runs.
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false,
                                       configuration: configuration)
    }

    package func begin() { session.begin() }

    /// Ends the session and waits (bounded) until it let go of the readers.
    package func stop() {
        session.invalidate()
        _ = ended.wait(timeout: .now() + 5)
    }

    /// Set once the session ended by itself (not by `stop()`).
    package var endedError: NFCReaderError? { endError.withLock { $0 } }

    package func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}

    package func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        endError.withLock { $0 = error as? NFCReaderError ?? NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly) }
        ended.signal()
    }
}
