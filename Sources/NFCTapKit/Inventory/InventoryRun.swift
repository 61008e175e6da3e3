import CoreNFCLinux
import Dispatch
import Foundation
import Synchronization

/// One inventory session: a multi-read `NFCNDEFReaderSession` over every matching reader that
/// outlives readers coming and going (`readerRemovalEndsSession = false`), reads tag details, and
/// hands every tag to `handler` before the reader's feedback. `run()` consumes its events;
/// `stop(_:)` ends it from any thread (a signal, a failed write).
package final class InventoryRun: Sendable {
    private let configuration: NFCSessionConfiguration
    private let environment: NFCReaderEnvironment

    private struct State {
        /// The running session's handle; nil before `run()` made it and after it ended.
        var invalidator: NFCSessionInvalidator?
        /// `stop(_:)` came (before the session existed, it ends the session at once).
        var stopped: NFCInvalidationReason?
        var ended: NFCReaderError?
        var becameActive = false
    }

    private let state = Mutex(State())
    /// Signalled once the session ended, for the blocking `wait(timeout:)` of synchronous callers.
    private let endedSignal = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - timeLimit: the session ends (201) after this long; nil = until stopped.
    ///   - operationTimeout: `--io-timeout`: a tag silent this long is recorded as lost.
    ///   - handler: the recorder; true = the record is on disk (green + beep).
    package init(environment: NFCReaderEnvironment, readerFilter: NFCReaderFilter, timeLimit: Duration?,
                 operationTimeout: Duration? = .seconds(5),
                 handler: @escaping @Sendable (NFCTagReport) -> Bool) {
        var configuration = Self.configuration(readerFilter: readerFilter, timeLimit: timeLimit, handler: handler)
        configuration.operationTimeout = operationTimeout
        self.configuration = configuration
        self.environment = environment
    }

    package static func configuration(readerFilter: NFCReaderFilter, timeLimit: Duration?,
                                      handler: @escaping @Sendable (NFCTagReport) -> Bool) -> NFCSessionConfiguration {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = timeLimit
        configuration.readerFilter = readerFilter
        configuration.readerRemovalEndsSession = false
        configuration.collectTagDetails = true
        configuration.tagReportHandler = handler
        return configuration
    }

    /// Runs the session until it ends (stopped: 200; the time limit: 201; no reader at the start: 1)
    /// and returns why.
    package func run() async -> NFCReaderError {
        let session = NFCNDEFReaderSession(invalidateAfterFirstRead: false, configuration: configuration, environment: environment)
        let early = state.withLock { s in
            s.invalidator = session.invalidator
            return s.stopped
        }
        if let early { session.invalidate(reason: early) }
        var ending = NFCReaderError(.readerSessionInvalidationErrorUserCanceled)
        do {
            for try await event in session.events {
                switch event {
                case .becameActive: state.withLock { $0.becameActive = true }
                case let .serviceLost(kind, error):
                    Stderr.line("nfctap: warning: reader service \(kind == .pcsc ? "pcscd" : kind.rawValue) lost: \(error)")
                case let .serviceRestored(kind):
                    Stderr.line("nfctap: reader service \(kind == .pcsc ? "pcscd" : kind.rawValue) restored")
                default: break
                }
            }
        } catch {
            ending = error as? NFCReaderError ?? NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly,
                                                                message: String(describing: error))
        }
        state.withLock { s in
            s.invalidator = nil
            s.ended = ending
        }
        endedSignal.signal()
        return ending
    }

    /// Ends the session (200); before `run()` began it, the session ends as soon as it starts.
    package func stop(_ reason: NFCInvalidationReason) {
        state.withLock { s in
            if s.stopped == nil { s.stopped = reason }
            s.invalidator?.invalidate(reason: reason)  // only queues the end: nothing calls back under the lock
        }
    }

    /// The session started polling (false when it could not start: no pcscd, no reader).
    package var becameActive: Bool { state.withLock { $0.becameActive } }

    // MARK: Synchronous callers (tests)

    /// Runs the session in a task of its own; `wait(timeout:)` says how it ended.
    package func start() {
        Task { _ = await self.run() }
    }

    /// Blocks until the session ended or `timeout` passed: why it ended, nil when still running.
    package func wait(timeout: DispatchTime) -> NFCReaderError? {
        guard endedSignal.wait(timeout: timeout) == .success else { return nil }
        endedSignal.signal()
        return state.withLock { $0.ended }
    }
}
