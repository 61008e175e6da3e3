import ReaderCore

/// Linux: what a session reports on its `events` sequence.
// @unchecked: `NFCNDEFMessage` is a mutable open class and the handed-out tags are session objects (neither
// Sendable, as on iOS); each event is made for its consumers and not kept by the session, and the
// tags' methods are thread-safe (their state is behind the engine's lock).
public enum NFCSessionEvent: @unchecked Sendable {
    /// An `NFCNDEFReaderSession` or `NFCTagReaderSession` started polling with these readers
    /// (`readersAtStart`): the delegates' `…DidBecomeActive` (Linux addition).
    case becameActive(readers: [ReaderInfo])
    case readerAdded(ReaderInfo)
    case readerRemoved(ReaderInfo)
    case tagArrived(DetectedTag)
    /// A read-only session read this message from the tag.
    case ndefRead(NFCNDEFMessage, from: DetectedTag)
    /// A read-only session could not read the tag (not NDEF, empty, gone); the session goes on
    /// unless the error also ends it.
    case readFailed(DetectedTag, NFCReaderError)
    case tagLeft(DetectedTag)
    /// Every tag a read session read, with or without a message (Linux addition).
    case tagReport(NFCTagReport)
    /// A read-write `NFCNDEFReaderSession` without a delegate (`init(readWriteWith:…)`) hands out the
    /// tags of one batch, as `readerSession(_:didDetect:)` does: `connect(to:)` one of them, then
    /// talk to it; polling resumes with `restartPolling()` (Linux addition).
    case ndefTagsDetected([any NFCNDEFTag])
    /// An `NFCTagReaderSession` without a delegate hands out the tags of one batch, as
    /// `tagReaderSession(_:didDetect:)` does (Linux addition).
    case tagsDetected([NFCTag])
    /// A backend's reader service went away (pcscd stopped, a libnfc device closed); its readers'
    /// `.readerRemoved` follow. A kiosk-style session (`readerRemovalEndsSession = false`) goes on
    /// (Linux addition).
    case serviceLost(ReaderBackendKind, ReaderError)
    /// A backend's reader service came back; its readers follow as `.readerAdded` (Linux addition).
    case serviceRestored(ReaderBackendKind)
}

/// The `events` of a session: iterate once per consumer.
public struct NFCSessionEvents: AsyncSequence {
    public typealias Element = NFCSessionEvent

    let session: NFCReaderSession

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<NFCSessionEvent, any Error>.AsyncIterator

        public mutating func next() async throws -> NFCSessionEvent? {
            try await base.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        let stream = session.engine.subscribe()
        session.begin()
        return AsyncIterator(base: stream.makeAsyncIterator())
    }
}

/// Linux: ends a session from any thread or task — a signal handler, a watchdog, a `stop()` —
/// while one task iterates its `events`. Sessions are not `Sendable` (as on iOS); this handle is,
/// and does nothing but invalidate (`NFCReaderSession.invalidator`).
public struct NFCSessionInvalidator: Sendable {
    let engine: SessionEngine

    /// `session.invalidate(reason:)`: the session ends with 200; a stream of its events ends quietly.
    public func invalidate(reason: NFCInvalidationReason = .userCanceled) {
        engine.invalidate(NFCReaderError(.readerSessionInvalidationErrorUserCanceled, message: reason.message), byUser: true)
    }
}

extension NFCInvalidationReason {
    /// The 200 error's message for this reason.
    var message: String {
        switch self {
        case .userCanceled: return NFCReaderError.Code.readerSessionInvalidationErrorUserCanceled.defaultMessage
        case let .signal(number): return "session ended by signal \(number)"
        }
    }
}
