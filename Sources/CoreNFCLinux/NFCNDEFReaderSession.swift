import Dispatch
import Foundation
import ReaderCore
import Synchronization

/// Core NFC's `NFCNDEFReaderSession`: reads NDEF messages, or (when the delegate implements
/// `readerSession(_:didDetect:)`) hands out tags to read and write.
///
/// - Single-read (`invalidateAfterFirstRead: true`): the first message is delivered, then the
///   session ends with 204.
/// - Multi-read: each tag is read once per presence; a tag left on the reader is not read again,
///   it is read again after it left and came back.
/// - Several tags detected within `configuration.batchWindow` come in one callback.
open class NFCNDEFReaderSession: NFCReaderSession {
    private enum Mode {
        /// No tags seen yet: whether the delegate implements `didDetect tags` is unknown.
        case undetermined
        case readOnly
        case readWrite
    }

    private weak var ndefDelegate: (any NFCNDEFReaderSessionDelegate)?
    private let hasDelegate: Bool
    /// A session without a delegate that hands out tags as `.ndefTagsDetected` (read-write).
    private let handsOutTags: Bool
    public let invalidateAfterFirstRead: Bool
    /// Made in each initializer (so before `begin()`), then used on the engine queue only.
    private lazy var modeOnEngineQueue = QueueBound(sending: Mode.undetermined, to: engine.queue)
    private var mode: Mode {
        get { modeOnEngineQueue.value }
        set { modeOnEngineQueue.value = newValue }
    }
    private let tagsDeclined = Atomic(false)

    /// Apple's initializer: `NFCReaderEnvironment.shared` and `NFCSessionConfiguration.shared`.
    /// Designated, as on iOS, so subclasses (mocks, wrappers) can call it.
    public init(delegate: any NFCNDEFReaderSessionDelegate, queue: DispatchQueue?, invalidateAfterFirstRead: Bool) {
        self.ndefDelegate = delegate
        self.hasDelegate = true
        self.handsOutTags = false
        self.invalidateAfterFirstRead = invalidateAfterFirstRead
        super.init(queue: queue, configuration: .shared, environment: .shared)
        engine.host = self
        _ = modeOnEngineQueue
    }

    /// Linux: with a configuration and an environment.
    public init(delegate: any NFCNDEFReaderSessionDelegate, queue: DispatchQueue?, invalidateAfterFirstRead: Bool,
                configuration: NFCSessionConfiguration, environment: NFCReaderEnvironment = .shared) {
        self.ndefDelegate = delegate
        self.hasDelegate = true
        self.handsOutTags = false
        self.invalidateAfterFirstRead = invalidateAfterFirstRead
        super.init(queue: queue, configuration: configuration, environment: environment)
        engine.host = self
        _ = modeOnEngineQueue
    }

    /// Linux: a read-only session without a delegate, for the async `events` API.
    public init(invalidateAfterFirstRead: Bool = false, queue: DispatchQueue? = nil,
                configuration: NFCSessionConfiguration = NFCSessionConfiguration(), environment: NFCReaderEnvironment = .shared) {
        self.hasDelegate = false
        self.handsOutTags = false
        self.invalidateAfterFirstRead = invalidateAfterFirstRead
        super.init(queue: queue, configuration: configuration, environment: environment)
        engine.host = self
        _ = modeOnEngineQueue
    }

    /// Linux: a read-write session without a delegate, for the async `events` API: each batch of
    /// tags comes as `.ndefTagsDetected` (what `readerSession(_:didDetect:)` gets), to
    /// `connect(to:)` and talk to; nothing is read by the session itself.
    public init(readWriteWith configuration: NFCSessionConfiguration = NFCSessionConfiguration(), queue: DispatchQueue? = nil,
                environment: NFCReaderEnvironment = .shared) {
        self.hasDelegate = false
        self.handsOutTags = true
        self.invalidateAfterFirstRead = false
        super.init(queue: queue, configuration: configuration, environment: environment)
        engine.host = self
    }

    open override var delegate: Any? { ndefDelegate }

    /// Read-write mode: tags handed out so far become invalid; the tags in the field come again in
    /// a later `readerSession(_:didDetect:)`.
    open func restartPolling() {
        engine.restartPolling()
    }

    /// Read-write mode: connects to `tag`, dropping the connection to any other.
    @preconcurrency open func connect(to tag: any NFCNDEFTag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        guard let tag = tag as? SessionTag else {
            sessionQueue.async {
                completionHandler(NFCReaderError(.readerErrorInvalidParameter, message: "not a tag of this session"))
            }
            return
        }
        engine.connect(tag, completion: completionHandler)
    }

    open func connect(to tag: any NFCNDEFTag) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            connect(to: tag) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Linux: reads one NDEF message (a single-read session) and returns it.
    /// - Throws: the `NFCReaderError` that ended the session (1 no reader, 201 timeout, …);
    ///   200 when the task was cancelled.
    public static func readOnce(configuration: NFCSessionConfiguration = NFCSessionConfiguration(),
                                environment: NFCReaderEnvironment = .shared) async throws -> NFCNDEFMessage {
        let session = NFCNDEFReaderSession(invalidateAfterFirstRead: true, configuration: configuration, environment: environment)
        var first: NFCNDEFMessage?
        // Iterate to the end: after the message the session ends (204), so on return it is over.
        for try await event in session.events {
            if case let .ndefRead(message, _) = event, first == nil { first = message }
        }
        if let first { return first }
        throw NFCReaderError(.readerSessionInvalidationErrorUserCanceled, message: "cancelled before a tag was read")
    }

    /// Called by the delegate protocol's default `readerSession(_:didDetect:)`.
    func delegateDoesNotHandleTags() {
        tagsDeclined.store(true, ordering: .releasing)
    }
}

extension NFCNDEFReaderSession: SessionEngineHost {
    func engineDidBecomeActive(_ engine: SessionEngine) {
        showInitialAlert()
        deliver { [self] in ndefDelegate?.readerSessionDidBecomeActive(self) }
        engine.emit(.becameActive(readers: readersAtStart))
    }

    /// A single read reports the first tag with a message whether or not others came with it
    /// (tags are read in arrival order), so it reports a lone tag at once; a multi-read delegate
    /// gets one batch's messages, and a read-write delegate one batch's tags, together.
    var batchingChangesResult: Bool {
        !(invalidateAfterFirstRead && mode != .readWrite)
    }

    func engine(_ engine: SessionEngine, didDetect batch: [TagPresence]) {
        switch mode {
        case .readOnly:
            read(batch)
        case .readWrite:
            handOut(batch)
        case .undetermined:
            if hasDelegate {
                probeDelegate(with: batch)
            } else if handsOutTags {
                mode = .readWrite
                handOut(batch)
            } else {
                mode = .readOnly
                read(batch)
            }
        }
    }

    func engine(_ engine: SessionEngine, didInvalidateWith error: NFCReaderError) {
        onSessionQueue { [self] in
            ndefDelegate?.readerSession(self, didInvalidateWithError: error)
        }
    }

    /// Offers the first tags to `readerSession(_:didDetect:)`; if the default implementation
    /// answered, the session becomes read-only and reads the same tags.
    private func probeDelegate(with batch: [TagPresence]) {
        let tags = makeTags(batch)
        guard !tags.isEmpty else { return }
        engine.pausePolling()
        deliver { [self] in
            guard let delegate = ndefDelegate else { return }
            delegate.readerSession(self, didDetect: tags)
            let declined = tagsDeclined.load(ordering: .acquiring)
            onEngineQueue { [self] in
                guard engine.phase == .active else { return }
                if declined {
                    mode = .readOnly
                    read(batch.filter { $0.isPresent })
                    if engine.phase == .active { engine.resumePolling() }
                } else {
                    mode = .readWrite
                }
            }
        }
    }

    private func handOut(_ batch: [TagPresence]) {
        let tags = makeTags(batch)
        guard !tags.isEmpty else { return }
        engine.pausePolling()
        if hasDelegate {
            deliver { [self] in ndefDelegate?.readerSession(self, didDetect: tags) }
        } else {
            engine.emit(.ndefTagsDetected(tags))
        }
    }

    private func makeTags(_ batch: [TagPresence]) -> [SessionTag] {
        let generation = engine.generation
        return batch.compactMap { presence in
            switch presence.detected.technology {
            case .type2, .mifareClassic: return MiFareSessionTag(engine: engine, presence: presence, generation: generation)
            case .type4: return ISO7816SessionTag(engine: engine, presence: presence, generation: generation)
            case .type5: return ISO15693SessionTag(engine: engine, presence: presence, generation: generation)
            case .feliCa: return FeliCaSessionTag(engine: engine, presence: presence, generation: generation, allowedSystemCodes: [])
            case .lowFrequency, .other: return nil
            }
        }
    }

    /// Read-only mode: reads every tag of the batch (single-read: until the first message), each
    /// reader on its own lane (a stuck card on one reader delays no other reader's reads). The
    /// delegate gets the batch's messages in one callback once every reader of the batch is done or
    /// expired, and the batch's events are held until that callback is queued, so a consumer of
    /// `events` that stops at `.ndefRead` or `.tagReport` never drops the delegate call for the same read.
    private func read(_ batch: [TagPresence]) {
        engine.holdEvents()
        engine.readBatch(batch.filter { $0.isPresent }, stopAtFirstMessage: invalidateAfterFirstRead,
                         readerDone: { [self] results in reported(results) },
                         batchDone: { [self] results in batchRead(results) })
    }

    /// One reader's reads are done (engine queue, session active): their events.
    private func reported(_ results: SessionEngine.ReadResults) {
        for (presence, outcome) in results {
            switch outcome {
            case let .message(message):
                engine.emit(.ndefRead(NFCNDEFMessage(decoded: message), from: presence.detected))
            case let .skipped(error):
                engine.emit(.readFailed(presence.detected, error))
            case let .failed(error):
                engine.emit(.readFailed(presence.detected, error))
                // iOS: a reader held by another process ends the session (203). A kiosk-style session
                // (readerRemovalEndsSession = false) reports that tag's failure and goes on.
                if error.code == .readerSessionInvalidationErrorSystemIsBusy, engine.configuration.readerRemovalEndsSession {
                    engine.releaseEvents()
                    engine.finish(error)
                    return
                }
            }
        }
    }

    /// Every reader of the batch is done (engine queue, session active): the delegate's messages,
    /// and the end of a single-read session.
    private func batchRead(_ results: SessionEngine.ReadResults) {
        var messages: [NFCNDEFMessage] = []
        var lost: NFCReaderError?
        for (_, outcome) in results {
            switch outcome {
            case let .message(message): messages.append(NFCNDEFMessage(decoded: message))
            case .skipped: break
            case let .failed(error): lost = lost ?? error
            }
            if invalidateAfterFirstRead, !messages.isEmpty { break }
        }
        if !messages.isEmpty {
            deliver { [self] in ndefDelegate?.readerSession(self, didDetectNDEFs: messages) }
        }
        engine.releaseEvents()
        guard invalidateAfterFirstRead else { return }
        if !messages.isEmpty {
            engine.finish(NFCReaderError(.readerSessionInvalidationErrorFirstNDEFTagRead))
        } else if let lost {
            engine.finish(lost)
        }
    }
}
