import CoreNFCLinux
import Dispatch
import Foundation
import Synchronization

/// The agent's reader session: an `NFCNDEFReaderSession` that reads every tag on every reader
/// (matching `--reader`) without time limit, survives readers and pcscd coming and going, and
/// does not pause itself (`pausesBackgroundReading` = false). A task consumes its events; reports
/// go to `inbox`.
package final class AgentReader: Sendable {
    private struct State {
        /// Ends the session; nil until the task made it.
        var invalidator: NFCSessionInvalidator?
        var stopRequested = false
        /// Set once the session ended by itself (not by `stop()`).
        var endError: NFCReaderError?
    }

    private let state = Mutex(State())
    /// Signalled when the session has ended: the agent's loop (a thread of its own, not a task)
    /// waits for the readers to be let go before another session may take them.
    private let ended = DispatchSemaphore(value: 0)
    private let configuration: NFCSessionConfiguration

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
        self.configuration = configuration
    }

    /// Starts the session in a task of its own.
    package func begin() {
        Task { await self.run() }
    }

    private func run() async {
        let session = NFCNDEFReaderSession(invalidateAfterFirstRead: false, configuration: configuration)
        let stopped = state.withLock { s in
            s.invalidator = session.invalidator
            return s.stopRequested
        }
        if stopped { session.invalidate() }
        var error: NFCReaderError?
        do {
            for try await _ in session.events {}
        } catch let thrown {
            error = thrown as? NFCReaderError ?? NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly)
        }
        state.withLock { s in
            s.invalidator = nil
            if !s.stopRequested { s.endError = error ?? NFCReaderError(.readerSessionInvalidationErrorUserCanceled) }
        }
        ended.signal()
    }

    /// Ends the session and waits (bounded) until it let go of the readers.
    package func stop() {
        state.withLock { s in
            s.stopRequested = true
            s.invalidator?.invalidate()
        }
        _ = ended.wait(timeout: .now() + 5)
    }

    /// Set once the session ended by itself (not by `stop()`).
    package var endedError: NFCReaderError? { state.withLock { $0.endError } }
}
