import Dispatch
import Foundation
import ReaderCore
import Synchronization

/// Core NFC's `NFCReaderSessionProtocol`: what a tag's `session` offers.
public protocol NFCReaderSessionProtocol: NSObjectProtocol {
    var isReady: Bool { get }
    var alertMessage: String { get set }
    func begin()
    func invalidate()
    func invalidate(errorMessage: String)
}

/// Why the app ends a session; every reason reaches the delegate as 200 (user canceled).
public enum NFCInvalidationReason: Sendable, Equatable {
    /// The user asked (Cancel, `q`, Ctrl-C).
    case userCanceled
    /// The process got a signal (SIGINT, SIGTERM).
    case signal(Int32)
}

/// Core NFC's `NFCReaderSession`: the base of `NFCNDEFReaderSession` and `NFCTagReaderSession`.
///
/// One session of a kind may be active at a time (per `NFCReaderEnvironment.slot`); a session
/// cannot be restarted after it ended. While active the session keeps itself alive; the delegate
/// is held weakly.
open class NFCReaderSession: NSObject, NFCReaderSessionProtocol {
    let engine: SessionEngine
    /// The queue delegate callbacks and completion handlers run on.
    public let sessionQueue: DispatchQueue
    private let alert = Mutex("")

    init(queue: DispatchQueue?, configuration: NFCSessionConfiguration, environment: NFCReaderEnvironment) {
        let sessionQueue = queue ?? DispatchQueue(label: "nfctap.session.delegate")
        self.sessionQueue = sessionQueue
        self.engine = SessionEngine(sessionQueue: sessionQueue, configuration: configuration, environment: environment)
        super.init()
    }

    /// True when a reader is attached (through `NFCReaderEnvironment.shared`).
    open class var readingAvailable: Bool {
        guard let backends = try? NFCReaderEnvironment.shared.makeBackends() else { return false }
        return backends.contains { (try? $0.listReaders().isEmpty == false) ?? false }
    }

    /// The session's delegate (held weakly).
    open var delegate: Any? { nil }

    /// True from `readerSessionDidBecomeActive` until the session ends.
    public var isReady: Bool { engine.isReady }

    /// Linux: how this session runs (readers, time limit, …). Set it before `begin()`.
    public var configuration: NFCSessionConfiguration {
        get { engine.configuration }
        set {
            engine.state.withLock { s in
                if s.phase == .idle { s.configuration = newValue }
            }
        }
    }

    /// Linux: the readers the session began with, as `configuration.readerFilter` selected them
    /// (once each, in the backends' order). Set before `…DidBecomeActive` is called; empty before,
    /// and for a kiosk-style session that began with none. Readers joining later come as `.readerAdded`.
    public var readersAtStart: [ReaderInfo] { engine.state.withLock { $0.readersAtStart } }

    /// Linux: the tag `connect(to:)` opened, as its reader reports it (reader, UID, technology);
    /// nil when no tag is connected (read-only sessions never hold one).
    public var connectedDetectedTag: DetectedTag? { engine.connectedTag?.detectedTag }

    /// Linux: the last tag that arrived on one of the session's readers, kept after it left and
    /// after the session ended (naming the tag whose read had not finished when the session timed out).
    public var lastDetectedTag: DetectedTag? { engine.state.withLock { $0.lastDetectedTag } }

    /// The prompt shown to the user; on Linux it goes to `configuration.alertHandler` (the
    /// terminal, or the log in kiosk mode) when the session becomes active and on every change.
    open var alertMessage: String {
        get { alert.withLock { $0 } }
        set {
            alert.withLock { $0 = newValue }
            if engine.isReady, !newValue.isEmpty { showAlert(newValue) }
        }
    }

    func showAlert(_ text: String) {
        engine.configuration.alertHandler(text)
    }

    /// Starts polling. The delegate hears `…DidBecomeActive`, or `didInvalidateWithError` with 1
    /// (no reader or no pcscd; the message names the fix) or 203 (another session is active).
    open func begin() {
        engine.begin()
    }

    /// Ends the session; the delegate gets 200.
    open func invalidate() {
        invalidate(reason: .userCanceled)
    }

    /// Ends the session showing `errorMessage` to the user; the delegate gets 200.
    open func invalidate(errorMessage: String) {
        if !errorMessage.isEmpty { showAlert(errorMessage) }
        engine.invalidate(NFCReaderError(.readerSessionInvalidationErrorUserCanceled,
                                         message: errorMessage.isEmpty ? nil : errorMessage), byUser: true)
    }

    /// Linux: ends the session for `reason` (the CLI's SIGINT handler passes `.signal(SIGINT)`).
    public func invalidate(reason: NFCInvalidationReason) {
        invalidator.invalidate(reason: reason)
    }

    /// Linux: a `Sendable` handle that ends this session from any thread (`invalidate(reason:)`).
    public var invalidator: NFCSessionInvalidator { NFCSessionInvalidator(engine: engine) }

    /// Linux: runs `action` on `sessionQueue` after `delay` measured by the session's clock, if the
    /// session is still active then (the "wait 500 ms, then restartPolling()" of Apple's sample).
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) {
        engine.scheduleOnSessionQueue(after: delay, action)
    }

    /// Linux: the session's events as an async sequence. Iterating starts the session if
    /// `begin()` was not called; the sequence ends when the session ends (throwing its
    /// `NFCReaderError` unless it was 200 or 204); cancelling the iterating task, or leaving the
    /// loop, ends the session with 200.
    public var events: NFCSessionEvents { NFCSessionEvents(session: self) }

    /// Queues a delegate callback on `sessionQueue`; dropped if the app invalidated the session
    /// before it ran (see `SessionEngine.reserveDelivery()` for the order with `events`).
    func deliver(_ callback: @escaping () -> Void) {
        let number = engine.reserveDelivery()
        let callback = QueueBound(unchecked: callback, to: sessionQueue)
        sessionQueue.async { [engine] in
            guard engine.mayDeliver(number) else { return }
            callback.value()
        }
    }

    /// Runs `body` on `sessionQueue`. The session and its delegate are not Sendable (neither is on
    /// iOS): Core NFC calls the delegate on the session queue, and so does this.
    func onSessionQueue(_ body: @escaping () -> Void) {
        let body = QueueBound(unchecked: body, to: sessionQueue)
        sessionQueue.async { body.value() }
    }

    /// Runs `body` on the engine queue, which owns the session's engine-queue state (`mode`).
    func onEngineQueue(_ body: @escaping () -> Void) {
        let body = QueueBound(unchecked: body, to: engine.queue)
        engine.queue.async { body.value() }
    }

    /// Shows the alert message once the session is active.
    func showInitialAlert() {
        let text = alertMessage
        if !text.isEmpty { showAlert(text) }
    }
}
