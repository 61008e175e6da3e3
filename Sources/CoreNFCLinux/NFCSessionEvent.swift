import ReaderCore

/// Linux: what a session reports on its `events` sequence.
// @unchecked: `NFCNDEFMessage` is a mutable open class (as on iOS); the message is made for the event and not kept by the session.
public enum NFCSessionEvent: @unchecked Sendable {
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
