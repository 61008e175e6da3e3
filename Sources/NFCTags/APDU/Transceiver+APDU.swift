extension Transceiver {
    /// Sends one command APDU and splits the reply; one exchange. The status word is returned,
    /// not judged: check `isSuccess` or call `successData()`.
    /// - Throws: whatever `transceive` throws (`TagError`), and `TagError.malformedReply` when
    ///   the reply is shorter than a status word.
    public func send(_ apdu: CommandAPDU) throws(TagError) -> ResponseAPDU {
        try ResponseAPDU(bytes: transceive(apdu.bytes))
    }
}
