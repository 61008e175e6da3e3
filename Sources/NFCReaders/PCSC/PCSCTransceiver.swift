import NFCTags
import PCSC

/// The `Transceiver` of a PC/SC connection: one `SCardTransmit` per exchange. For ISO-DEP cards a
/// command is a C-APDU; for storage tags it is a reader pseudo-APDU (`FF CA`, `FF B0`, `FF D6`, …).
public final class PCSCTransceiver: Transceiver {
    let card: Card

    init(card: Card) { self.card = card }

    /// Sends `command`, returns data + SW1 SW2.
    /// - Throws: `TagError.tagLost` (card removed/reset/absent, or an empty reply), `.readerGone`
    ///   (reader or pcscd gone), `.readerBusy`, `.malformedReply` for a 1-byte reply,
    ///   `.transport(code:message:)` with the SCARD_* code otherwise.
    public func transceive(_ command: [UInt8]) throws -> [UInt8] {
        let reply: [UInt8]
        do {
            reply = try card.transmit(command)
        } catch let error as PCSCError {
            throw error.tagError
        }
        // No bytes at all is no answer: vpcd reports a card that left mid-exchange this way, before
        // pcscd's next presence poll (as `EmulatedPCSCTransceiver` maps a missing answer).
        guard !reply.isEmpty else { throw TagError.tagLost }
        guard reply.count >= 2 else {
            throw TagError.malformedReply("PC/SC reply of \(reply.count) byte(s) has no status word")
        }
        return reply
    }
}
