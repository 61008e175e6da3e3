/// Core NFC's `NFCNDEFReaderSessionDelegate`.
///
/// Apple's optional methods are requirements here with default implementations (no Objective-C
/// runtime to ask "does the delegate respond to this selector?"). How the session knows whether
/// `readerSession(_:didDetect:)` is implemented: the first time tags are detected the session calls
/// it; the default implementation below tells the session to fall back, and the session then
/// reads the same tags itself and calls `didDetectNDEFs` (read-only mode) from then on. A delegate
/// that implements it gets read-write mode.
///
/// Caveat of Swift's protocol witnesses: implement the optional methods in the class that
/// declares the conformance (a subclass's implementation is not seen by the protocol).
public protocol NFCNDEFReaderSessionDelegate: AnyObject {
    /// The session ended; no callback follows.
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error)
    /// Read-only mode: the messages read from the tags of one detection.
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage])
    /// Optional. Implementing it makes the session read-write: connect, query, read, write, lock.
    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag])
    /// Optional. Polling has started.
    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession)
}

extension NFCNDEFReaderSessionDelegate {
    public func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        session.delegateDoesNotHandleTags()
    }

    public func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {}
}
