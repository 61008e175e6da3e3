/// Core NFC's `NFCTagReaderSessionDelegate`. Apple's optional methods have default
/// implementations here (see `NFCNDEFReaderSessionDelegate` for the caveat).
public protocol NFCTagReaderSessionDelegate: AnyObject {
    /// Optional. Polling has started.
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession)
    /// The session ended; no callback follows.
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error)
    /// Optional. Tags detected together; polling pauses until `restartPolling()`.
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag])
}

extension NFCTagReaderSessionDelegate {
    public func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}
    public func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {}
}
