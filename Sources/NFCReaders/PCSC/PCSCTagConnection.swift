import NFCTags
import PCSC

/// A connection to a tag through pcscd. Closes in `deinit` if `disconnect()` was not called.
public final class PCSCTagConnection: TagConnection {
    public let tag: DetectedTag
    /// The raw PC/SC channel: C-APDUs for ISO-DEP cards, reader pseudo-APDUs (`FF …`) for storage
    /// tags. `apdu` exposes it for ISO-DEP cards only.
    public let transceiver: PCSCTransceiver
    private let card: Card

    init(tag: DetectedTag, card: Card) {
        self.tag = tag
        self.card = card
        self.transceiver = PCSCTransceiver(card: card)
    }

    deinit { try? card.disconnect(.leave) }

    public var apdu: Transceiver? {
        tag.technology == .type2 ? nil : transceiver
    }

    /// For `.type2` tags: the Type 2 command set as pseudo-APDUs, shaped by what the reader is
    /// (`PCSCReaderProfile(readerName:)`: ACR122U direct transmit for FAST_READ, Identiv 4-byte reads…).
    public private(set) lazy var type2: Type2Link? = tag.technology == .type2
        ? PseudoAPDUType2Link(transceiver: transceiver, profile: PCSCReaderProfile(readerName: tag.reader.name))
        : nil

    /// ACR122U LED + buzzer (`FF 00 40 P2 04 T1 T2 REP LINK`, T in 100 ms units) when the reader has
    /// them; nothing elsewhere. Errors and the `90 <LED state>` reply are ignored: feedback is best effort.
    public func signal(_ feedback: ReaderFeedback) {
        guard tag.reader.supportsFeedback, !transceiver.abandoned.isRaised else { return }
        _ = try? card.transmit(Self.feedbackCommand(feedback))
    }

    /// The ACR122U "LED and buzzer control" pseudo-APDU.
    /// P2 bits: 0/1 final red/green, 2/3 red/green update mask, 4/5 initial red/green blink state,
    /// 6/7 red/green blink mask. LINK: 01 buzz during T1.
    static func feedbackCommand(_ feedback: ReaderFeedback) -> [UInt8] {
        switch feedback {
        case .success:
            // Green blink mask + green on during T1 + green update, final off; 200 ms, once, beep in T1.
            return [0xFF, 0x00, 0x40, 0xA8, 0x04, 0x02, 0x01, 0x01, 0x01]
        case .failure:
            // Red blink mask + red on during T1 + red update, final off; 100 ms on/off twice, no beep.
            return [0xFF, 0x00, 0x40, 0x54, 0x04, 0x01, 0x01, 0x02, 0x00]
        }
    }

    /// Closes the connection leaving the card as it is (SCARD_LEAVE_CARD).
    public func disconnect() {
        try? card.disconnect(.leave)
    }

    /// No further exchange reaches the card. pcsc-lite holds the context's lock for the whole of a
    /// `SCardTransmit`, so neither `SCardDisconnect` nor releasing the context can end one that is
    /// stuck, and `SCardCancel` only ends `SCardGetStatusChange`: the stuck call returns when the
    /// card answers, leaves or pcscd's driver gives up. The connection has its own context, so
    /// other readers are not held meanwhile.
    public func abandon() {
        transceiver.abandoned.raise()
    }
}
