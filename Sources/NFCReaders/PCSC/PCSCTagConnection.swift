import NFCTags
import PCSC
import ReaderCore

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

    deinit {
        rememberRefusal()
        try? card.disconnect(.leave)
    }

    public var apdu: Transceiver? {
        tag.technology == .type2 || tag.technology == .feliCa ? nil : transceiver
    }

    /// For FeliCa cards: frames through the reader's transparent exchange or ACR122U direct
    /// transmit (docs/tags-and-readers.md §9.1); nil on readers with neither.
    public private(set) lazy var feliCa: Transceiver? = {
        guard tag.technology == .feliCa else { return nil }
        return PCSCFeliCaChannel.make(reader: transceiver, profile: profile)
    }()

    /// The reader's identity (`PCSCReaderRegistry`: firmware string of ACS readers, asked once per
    /// reader and process; else the name).
    /// The question goes through `transceiver`, like every other exchange (counted and traced).
    public private(set) lazy var profile: PCSCReaderProfile = PCSCReaderRegistry.shared.profile(readerName: tag.reader.name) {
        [transceiver] query in try? transceiver.transceive(query)
    }

    /// For `.type2` tags: the Type 2 command set as pseudo-APDUs, shaped by the reader's profile
    /// (ACR122U direct transmit or PC/SC Part 3 transparent exchange for raw commands, Identiv
    /// 4-byte reads…). A refused page is recovered by reconnecting with a card reset.
    public private(set) lazy var type2: Type2Link? = {
        guard tag.technology == .type2 else { return nil }
        let link = PseudoAPDUType2Link(transceiver: transceiver, profile: profile, recover: { [card] in
            do { try card.reconnect() } catch let error as PCSCError { throw error.tagError }
        })
        madeLink = link
        return link
    }()
    private var madeLink: PseudoAPDUType2Link?

    /// A reader that refused its raw path is remembered, so the next tap does not ask again.
    private func rememberRefusal() {
        if madeLink?.rawPathRefused == true { PCSCReaderRegistry.shared.noteRawCommandsRefused(readerName: tag.reader.name) }
    }

    /// LED/buzzer feedback by `PCSCReaderFeedback` (ACR122U pseudo-APDUs, ACR1252U/ACR1255U
    /// escape commands); nothing elsewhere. On an ACR122U the automatic beep on card detection is
    /// turned off first (once per reader and process, restored at exit). Errors are ignored:
    /// feedback is best effort.
    public func signal(_ feedback: ReaderFeedback) {
        guard !transceiver.abandoned.isRaised else { return }
        let profile = self.profile
        guard profile.feedbackPath != .none else { return }
        if profile.feedbackPath == .acr122uPseudoAPDU, PCSCReaderRegistry.shared.claimBuzzer(readerName: tag.reader.name) {
            _ = try? card.transmit(PCSCReaderFeedback.automaticBuzzerOff)
        }
        for step in PCSCReaderFeedback.steps(feedback, profile: profile, readerName: tag.reader.name) {
            switch step {
            case let .transmit(apdu): _ = try? card.transmit(apdu)
            case let .control(command): _ = try? card.control(code: controlCode(1), command)
            }
        }
    }

    /// The ACR122U "LED and buzzer control" pseudo-APDU (`PCSCReaderFeedback`).
    static func feedbackCommand(_ feedback: ReaderFeedback) -> [UInt8] {
        PCSCReaderFeedback.acr122uCommand(feedback)
    }

    /// Closes the connection leaving the card as it is (SCARD_LEAVE_CARD).
    public func disconnect() {
        rememberRefusal()
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
