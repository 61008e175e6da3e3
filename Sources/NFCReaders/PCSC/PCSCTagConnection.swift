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
    /// What this process (or backend) learned about the reader: profile, refusals, mute feedback.
    let registry: PCSCReaderRegistry
    /// Feedback commands the reader did not answer within `PCSCReaderFeedback.answerBound`: the
    /// card is closed when they end, not before (pcsc-lite would block the close meanwhile).
    private var unansweredFeedback: BoundedWork?

    init(tag: DetectedTag, card: Card, registry: PCSCReaderRegistry = .shared) {
        self.tag = tag
        self.card = card
        self.registry = registry
        self.transceiver = PCSCTransceiver(card: card)
    }

    deinit {
        rememberRefusal()
        close()
    }

    /// SCardDisconnect(SCARD_LEAVE_CARD), now or once unanswered feedback has ended.
    private func close() {
        guard let unansweredFeedback else {
            try? card.disconnect(.leave)
            return
        }
        let handle = CardHandle(card)
        unansweredFeedback.afterwards { try? handle.card.disconnect(.leave) }
    }

    public var apdu: Transceiver? {
        [.type2, .feliCa, .mifareClassic].contains(tag.technology) ? nil : transceiver
    }

    /// For MIFARE Classic cards: Load Keys and General Authenticate (`PCSCMifareClassicLink`,
    /// docs/tags-and-readers.md §10), keys kept loaded for the connection.
    public private(set) lazy var mifareClassic: MifareClassicLink? = {
        guard tag.technology == .mifareClassic else { return nil }
        return PCSCMifareClassicLink(transceiver: transceiver, profile: profile, recover: { [card] () throws(TagError) in
            do throws(PCSCError) { try card.reconnect() } catch { throw error.tagError }
        })
    }()

    /// For `.type5` tags: ISO 15693 frames through the transparent exchange, or block READ /
    /// UPDATE BINARY where the reader refuses it (`PCSCISO15693Link`; docs/tags-and-readers.md §7.10).
    /// nil on a reader without ISO 15693 (ACR122U): `ndefOperations()` then names the reader.
    public private(set) lazy var iso15693: ISO15693Link? = {
        guard tag.technology == .type5 else { return nil }
        let link = try? PCSCISO15693Link(transceiver: transceiver, profile: profile, uid: tag.uid)
        madeVicinityLink = link
        return link
    }()
    private var madeVicinityLink: PCSCISO15693Link?
    /// For FeliCa cards: frames through the reader's transparent exchange or ACR122U direct
    /// transmit (docs/tags-and-readers.md §9.1); nil on readers with neither.
    public private(set) lazy var feliCa: Transceiver? = {
        guard tag.technology == .feliCa else { return nil }
        return PCSCFeliCaChannel.make(reader: transceiver, profile: profile)
    }()

    /// The reader's identity (`PCSCReaderRegistry`: firmware string of ACS readers, asked once per
    /// reader and process; else the name).
    /// The question goes through `transceiver`, like every other exchange (counted and traced).
    public private(set) lazy var profile: PCSCReaderProfile = registry.profile(readerName: tag.reader.name) {
        [transceiver] query in try? transceiver.transceive(query)
    }

    /// For `.type2` tags: the Type 2 command set as pseudo-APDUs, shaped by the reader's profile
    /// (ACR122U direct transmit or PC/SC Part 3 transparent exchange for raw commands, Identiv
    /// 4-byte reads…). A refused page is recovered by reconnecting with a card reset.
    public private(set) lazy var type2: Type2Link? = {
        guard tag.technology == .type2 else { return nil }
        let link = PseudoAPDUType2Link(transceiver: transceiver, profile: profile, recover: { [card] () throws(TagError) in
            do throws(PCSCError) { try card.reconnect() } catch { throw error.tagError }
        })
        madeLink = link
        return link
    }()
    private var madeLink: PseudoAPDUType2Link?

    /// A reader that refused its raw path is remembered, so the next tap does not ask again.
    private func rememberRefusal() {
        if madeLink?.rawPathRefused == true { registry.noteRawCommandsRefused(readerName: tag.reader.name) }
        if let vicinity = madeVicinityLink {
            vicinity.close()
            if vicinity.transparentRefused { registry.noteRawCommandsRefused(readerName: tag.reader.name) }
        }
    }

    /// LED/buzzer feedback by `PCSCReaderFeedback` (ACR122U pseudo-APDUs, ACR1252U/ACR1255U
    /// escape commands); nothing elsewhere. On an ACR122U the automatic beep on card detection is
    /// turned off first (once per reader and process, restored at exit). Errors are ignored:
    /// feedback is best effort. The commands run on their own thread, waited for up to
    /// `PCSCReaderFeedback.answerBound`: a reader that does not answer in time (an ACR122U at
    /// firmware 215 has been seen never answering its LED command) is sent no more feedback, so
    /// it costs that wait once, not a timeout on every tap (docs/tags-and-readers.md §3).
    public func signal(_ feedback: ReaderFeedback) {
        guard !transceiver.abandoned.isRaised, unansweredFeedback == nil else { return }
        let profile = self.profile
        let name = tag.reader.name
        guard profile.feedbackPath != .none, !registry.feedbackUnanswered(readerName: name) else { return }
        var steps: [PCSCReaderFeedback.Step] = []
        if profile.feedbackPath == .acr122uPseudoAPDU, registry.claimBuzzer(readerName: name) {
            steps.append(.transmit(PCSCReaderFeedback.automaticBuzzerOff))
        }
        steps += PCSCReaderFeedback.steps(feedback, profile: profile, readerName: name)
        let handle = CardHandle(card)
        let commands = steps
        let work = BoundedWork("nfctap feedback") {
            for step in commands {
                switch step {
                case let .transmit(apdu): _ = try? handle.card.transmit(apdu)
                case let .control(command): _ = try? handle.card.control(code: controlCode(1), command)
                }
            }
        }
        guard !work.wait(upTo: PCSCReaderFeedback.answerBound) else { return }
        registry.noteFeedbackUnanswered(readerName: name)
        unansweredFeedback = work
    }

    /// The ACR122U "LED and buzzer control" pseudo-APDU (`PCSCReaderFeedback`).
    static func feedbackCommand(_ feedback: ReaderFeedback) -> [UInt8] {
        PCSCReaderFeedback.acr122uCommand(feedback)
    }

    /// Closes the connection leaving the card as it is (SCARD_LEAVE_CARD).
    public func disconnect() {
        rememberRefusal()
        close()
    }

    /// No further exchange reaches the card. pcsc-lite holds the context's lock for the whole of a
    /// `SCardTransmit`, so neither `SCardDisconnect` nor releasing the context can end one that is
    /// stuck, and `SCardCancel` only ends `SCardGetStatusChange`: the stuck call returns when the
    /// card answers, leaves or pcscd's driver gives up. The connection has its own context, so
    /// other readers are not held meanwhile.
    public var abandoner: @Sendable () -> Void {
        { [abandoned = transceiver.abandoned] in abandoned.raise() }
    }
}

/// A card handed to the thread of feedback commands.
// @unchecked: the card is used by one thread at a time: the feedback thread while its commands
// run, the connection's thread only after they ended (`BoundedWork.afterwards` orders the close).
final class CardHandle: @unchecked Sendable {
    let card: Card
    init(_ card: Card) { self.card = card }
}
