import NFCTags
import PCSC
import ReaderCore

/// The `Transceiver` of a PC/SC connection: one `SCardTransmit` per exchange. For ISO-DEP cards a
/// command is a C-APDU; for storage tags it is a reader pseudo-APDU (`FF CA`, `FF B0`, `FF D6`, …).
public final class PCSCTransceiver: Transceiver {
    let card: Card
    /// Raised by `PCSCTagConnection.abandon()`: no more exchanges reach the card.
    let abandoned = AbandonFlag()

    init(card: Card) { self.card = card }

    /// Sends `command`, returns data + SW1 SW2.
    /// - Throws: `TagError.tagLost` (card removed/reset/absent), `.readerGone` (reader or pcscd gone),
    ///   `.readerBusy`, `.malformedReply` for a reply shorter than a status word,
    ///   `.transport(code:message:)` with the SCARD_* code otherwise; `.tagLost` at once after
    ///   the connection was abandoned.
    public func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        guard !abandoned.isRaised else { throw TagError.tagLost }
        let reply: [UInt8]
        do throws(PCSCError) {
            reply = try card.transmit(command)
        } catch {
            throw error.tagError  // docs/architecture.md "Errors"
        }
        // Every ISO 7816 answer ends with SW1 SW2; nothing at all means the card did not answer
        // (pcscd passes vpcd's and some readers' "no response" on as a 0-byte reply).
        guard !reply.isEmpty else { throw TagError.tagLost }
        guard reply.count >= 2 else {
            throw TagError.malformedReply("PC/SC reply of \(reply.count) byte(s) has no status word")
        }
        return reply
    }
}
