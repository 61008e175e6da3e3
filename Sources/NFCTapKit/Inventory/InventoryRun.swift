import CoreNFCLinux
import Dispatch
import Foundation
import Synchronization

/// One inventory session: a multi-read `NFCNDEFReaderSession` over every matching reader that
/// outlives readers coming and going (`readerRemovalEndsSession = false`), reads tag details, and
/// hands every tag to `handler` before the reader's feedback.
// @unchecked: `session` (not Sendable, as in Apple's Core NFC) is set once in `init`, and
// its methods are thread-safe; the rest is a Mutex and a semaphore.
package final class InventoryRun: NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    /// Set in `init` (the session needs `self` as its delegate).
    private(set) var session: NFCNDEFReaderSession!
    private let ended = DispatchSemaphore(value: 0)
    private let state = Mutex<(error: NFCReaderError?, becameActive: Bool)>((nil, false))

    /// - Parameters:
    ///   - timeLimit: the session ends (201) after this long; nil = until stopped.
    ///   - operationTimeout: `--io-timeout`: a tag silent this long is recorded as lost.
    ///   - handler: the recorder; true = the record is on disk (green + beep).
    package init(environment: NFCReaderEnvironment, readerFilter: NFCReaderFilter, timeLimit: Duration?,
         operationTimeout: Duration? = .seconds(5),
         handler: @escaping @Sendable (NFCTagReport) -> Bool) {
        var configuration = Self.configuration(readerFilter: readerFilter, timeLimit: timeLimit, handler: handler)
        configuration.operationTimeout = operationTimeout
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false,
                                       configuration: configuration,
                                       environment: environment)
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

    package func start() { session.begin() }

    /// Ends the session (the delegate then hears 200).
    package func stop(_ reason: NFCInvalidationReason) { session.invalidate(reason: reason) }

    /// Blocks until the session ended; returns why.
    package func wait() -> NFCReaderError {
        ended.wait()
        ended.signal()
        return state.withLock { $0.error } ?? NFCReaderError(.readerSessionInvalidationErrorUserCanceled)
    }

    /// Like `wait()`, giving up after `timeout` (tests): nil when still running.
    package func wait(timeout: DispatchTime) -> NFCReaderError? {
        guard ended.wait(timeout: timeout) == .success else { return nil }
        ended.signal()
        return state.withLock { $0.error }
    }

    /// The session started polling (false when it could not start: no pcscd, no reader).
    package var becameActive: Bool { state.withLock { $0.becameActive } }

    // MARK: NFCNDEFReaderSessionDelegate

    package func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
        state.withLock { $0.becameActive = true }
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        state.withLock {
            $0.error = error as? NFCReaderError ?? NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly,
                                                                message: String(describing: error))
        }
        ended.signal()
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        // Everything is recorded in the report handler, tags without a message included.
    }
}
