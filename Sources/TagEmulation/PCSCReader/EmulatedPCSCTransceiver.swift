import NFCTags

/// The full PC/SC path without pcscd: APDUs go to an `EmulatedPCSCReader` in process.
/// No answer (no card, tag left the field, tag mute) → `TagError.tagLost`.
public final class EmulatedPCSCTransceiver: Transceiver {
    public let reader: EmulatedPCSCReader

    public init(reader: EmulatedPCSCReader) {
        self.reader = reader
    }

    public func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        guard let reply = reader.transmit(command) else { throw TagError.tagLost }
        return reply
    }
}
