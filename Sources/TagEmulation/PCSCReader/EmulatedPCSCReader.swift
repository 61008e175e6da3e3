import Foundation
import NFCTags
import Synchronization

/// A PC/SC contactless reader's personality in front of a `VirtualTag`: the ATR it builds, the
/// pseudo-APDUs it understands (docs/tags-and-readers.md §3) and the frames it sends the
/// tag. It sits behind vpcd (the virtual card client feeds it) and behind
/// `EmulatedPCSCTransceiver` for in-process tests and the demo.
///
/// Every `transmit` is one exchange of `plan` (latency, leave-field, injected faults, log).
public final class EmulatedPCSCReader: Sendable {
    public let profile: PCSCReaderProfile
    public let plan: FaultPlan

    /// The tag, what the reader did so far and its quirks, behind one lock.
    struct State {
        var tag: VirtualTag?
        var ledState: UInt8 = 0
        var buzzerOnDetection = true
        var lockedUp = false
        var sessionOpen = false
        var escapeLog: [[UInt8]] = []
        var buzzerBeeps: [UInt8] = []
        var firmwareString: String?
        var pn532ErrorsAsStatusWords = false
        var locksUpAfterFailedRead: Bool
        var refusesReadsPastMemoryEnd: [UInt8]?
        var refusesTransparentExchange = false
        var transparentRefusal: [UInt8] = [0x6D, 0x00]
        var misreportedWrites = 0
        var ledCommandNeverAnswers = false
        /// Load Keys' slots (MIFARE Classic).
        var classicKeys: [UInt8: [UInt8]] = [:]
    }

    let state: Mutex<State>

    /// ACR122U quirks, as reported for real units (see the properties). On by default for the
    /// `.acr122u` profile except `pn532ErrorsAsStatusWords`.
    /// The firmware string `FF 00 48 00 00` returns without a status word (ACR122U API v2.04 §6.3;
    /// "ACR122U215" in nfcpy issue 105's trace). nil: the reader refuses the command (`6A 81`).
    public var firmwareString: String? {
        get { state.withLock { $0.firmwareString } }
        set { state.withLock { $0.firmwareString = newValue } }
    }
    /// PN532 failures of a direct transmit come back as `63 01` (timeout) and `63 7F` (wrong
    /// command) instead of `D5 43 01 90 00` (ACR122L manual; libnfc issue 251, a Touchatag).
    public var pn532ErrorsAsStatusWords: Bool {
        get { state.withLock { $0.pn532ErrorsAsStatusWords } }
        set { state.withLock { $0.pn532ErrorsAsStatusWords = newValue } }
    }
    /// After a READ BINARY the tag refused (`63 00`), every later READ BINARY answers `63 00` until the
    /// tag is re-presented (`reset()` / a new tag), as a public smartcardservices report describes.
    public var locksUpAfterFailedRead: Bool {
        get { state.withLock { $0.locksUpAfterFailedRead } }
        set { state.withLock { $0.locksUpAfterFailedRead = newValue } }
    }
    /// A generic reader that refuses 16-byte READ BINARYs crossing the end of the chip's memory with
    /// this status word (`6B 00` / `6A 82`, as a Feitian R502 trace shows on an Ultralight C).
    /// nil: the reader passes them and the tag rolls over.
    public var refusesReadsPastMemoryEnd: [UInt8]? {
        get { state.withLock { $0.refusesReadsPastMemoryEnd } }
        set { state.withLock { $0.refusesReadsPastMemoryEnd = newValue } }
    }
    /// A reader of a transparent-exchange family whose firmware refuses `FF C2` (`6D 00`).
    public var refusesTransparentExchange: Bool {
        get { state.withLock { $0.refusesTransparentExchange } }
        set { state.withLock { $0.refusesTransparentExchange = newValue } }
    }

    /// The status word a reader that refuses `FF C2` answers (`6D 00` by default; `63 00` and
    /// `6A 81` are seen too). Only with `refusesTransparentExchange`.
    public var transparentRefusal: [UInt8] {
        get { state.withLock { $0.transparentRefusal } }
        set { state.withLock { $0.transparentRefusal = newValue } }
    }
    /// The next this many UPDATE BINARYs the tag acknowledges are answered `63 00` anyway (an
    /// ACR122U reporting failure for a WRITE that landed).
    public var misreportedWrites: Int {
        get { state.withLock { $0.misreportedWrites } }
        set { state.withLock { $0.misreportedWrites = newValue } }
    }
    /// The LED/buzzer command (`FF 00 40 …`) is not answered until the plan's stalls are released
    /// (`FaultPlan.releaseStalls()`), as an ACR122U at firmware 215 was seen doing.
    public var ledCommandNeverAnswers: Bool {
        get { state.withLock { $0.ledCommandNeverAnswers } }
        set { state.withLock { $0.ledCommandNeverAnswers = newValue } }
    }

    public init(profile: PCSCReaderProfile = .generic, tag: VirtualTag? = nil, plan: FaultPlan = FaultPlan()) {
        self.profile = profile
        self.plan = plan
        self.state = Mutex(State(tag: tag, firmwareString: profile.family == .acr122u ? "ACR122U215" : nil,
                                 locksUpAfterFailedRead: profile.family == .acr122u))
        tag?.activate()
    }

    /// The tag on the reader; nil = no card. Setting one activates it (it just entered the field).
    public var tag: VirtualTag? {
        get { state.withLock { $0.tag } }
        set {
            newValue?.activate()
            state.withLock { $0.tag = newValue; $0.lockedUp = false; $0.sessionOpen = false }
        }
    }

    /// A PC/SC reader name that `PCSCReaderProfile(readerName:)` maps back to `profile`.
    public var readerName: String {
        switch profile.family {
        case .acr122u: return "ACS ACR122U PICC Interface 00 00"
        case .acr1252u: return "ACS ACR1252 1S CL Reader PICC 00 00"
        case .identiv: return "Identiv uTrust 3700 F CL Reader 00 00"
        case .omnikey: return "HID Global OMNIKEY 5022 Smart Card Reader 00 00"
        case .springcard: return "SpringCard Prox'N'Roll (PICC) 00 00"
        case .generic: return "Virtual PCD 00 00"
        }
    }

    /// The reader is refusing every READ BINARY until the tag is re-presented.
    public var isLockedUp: Bool { state.withLock { $0.lockedUp } }
    /// A transparent session is open (`FF C2 00 00 02 81 00` without its end).
    public var isTransparentSessionOpen: Bool { state.withLock { $0.sessionOpen } }
    /// Every SCardControl escape command received, in order.
    public var escapeLog: [[UInt8]] { state.withLock { $0.escapeLog } }
    /// Buzzer durations (10 ms units) asked through the ACS escape "Buzzer Control".
    public var buzzerBeeps: [UInt8] { state.withLock { $0.buzzerBeeps } }

    /// ACR122U LED state as the last `FF 00 40` left it: bit 0 red, bit 1 green.
    public var ledState: UInt8 { state.withLock { $0.ledState } }
    /// ACR122U "buzz on card detection" (`FF 00 52 FF 00` on, `FF 00 52 00 00` off).
    public var buzzerOnDetection: Bool { state.withLock { $0.buzzerOnDetection } }

    /// The ATR for the current tag; nil when there is none.
    public var atr: [UInt8]? { tag.map(Self.atr(for:)) }

    /// Power-on or reset from the host (vpcd control bytes 01/02): re-activates the tag.
    public func reset() {
        tag?.activate()
        state.withLock { $0.lockedUp = false; $0.sessionOpen = false }
    }

    /// One APDU to the reader; nil when no card is present or the tag did not answer
    /// (the PC/SC layer reports that as a removed card).
    public func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        guard let tag else { return nil }
        return plan.exchange(apdu) { self.answer($0, tag: tag) }
    }

    /// An in-process `Type2Link` through this reader (pseudo-APDUs of `profile`).
    /// Its `recover` re-presents the tag, as SCardReconnect with a reset does on a real reader.
    /// `transceiver`: what carries the pseudo-APDUs to this reader (a traced or abandonable wrapper
    /// of `EmulatedPCSCTransceiver(reader: self)`); that transceiver itself by default.
    public func type2Link(over transceiver: (any Transceiver)? = nil) -> PseudoAPDUType2Link {
        PseudoAPDUType2Link(transceiver: transceiver ?? EmulatedPCSCTransceiver(reader: self), profile: profile,
                            recover: { [weak self] () throws(TagError) in
                                // SCardReconnect fails when the card is gone: no re-activation then.
                                guard let self, self.plan.tagPresent, self.tag != nil else { throw TagError.tagLost }
                                self.reset()
                            })
    }

    // MARK: - Pseudo-APDUs

    static let ok: [UInt8] = [0x90, 0x00]
    static let failed: [UInt8] = [0x63, 0x00]
    static let wrongLength: [UInt8] = [0x67, 0x00]
    static let functionNotSupported: [UInt8] = [0x6A, 0x81]
    static let insNotSupported: [UInt8] = [0x6D, 0x00]
    static let claNotSupported: [UInt8] = [0x6E, 0x00]

    private func answer(_ apdu: [UInt8], tag: VirtualTag) -> [UInt8]? {
        guard apdu.count >= 4 else { return Self.wrongLength }
        guard apdu[0] == 0xFF else {
            // An ISO-DEP card gets the APDU itself; a storage card has no APDU interface.
            return tag.ats != nil ? tag.respond(to: apdu) : Self.claNotSupported
        }
        let body = Array(apdu.dropFirst(4))
        if let vicinity = tag as? VirtualISO15693Tag {
            if profile.family == .acr122u { return nil } // no ISO 15693 radio
            if apdu[1] != 0xC2 { return iso15693Pseudo(apdu, tag: vicinity) }
        }
        if let classic = tag as? VirtualMifareClassic, [0x82, 0x86, 0xB0, 0xD6].contains(apdu[1]) {
            return classicPseudo(apdu, card: classic)
        }
        switch apdu[1] {
        case 0xCA: return getData(p1: apdu[2], p2: apdu[3], tag: tag)
        case 0xB0: return readBinary(block: Int(apdu[2]) << 8 | Int(apdu[3]), le: body.first ?? 0, tag: tag)
        case 0xD6: return updateBinary(block: Int(apdu[2]) << 8 | Int(apdu[3]), body: body, tag: tag)
        case 0x00: return escape(p1: apdu[2], p2: apdu[3], body: body, tag: tag)
        case 0xC2: return transparent(p1: apdu[2], p2: apdu[3], body: body, tag: tag)
        default: return Self.insNotSupported
        }
    }

    /// GET DATA `FF CA P1 00 Le`: P1 00 UID; P1 01 the ATS (ACS) or the historical bytes (PC/SC Part 3).
    private func getData(p1: UInt8, p2: UInt8, tag: VirtualTag) -> [UInt8] {
        guard p2 == 0 else { return Self.functionNotSupported }
        switch p1 {
        case 0x00: return tag.uid + Self.ok
        case 0x01:
            guard let ats = tag.ats else { return Self.functionNotSupported }
            return (profile.getDataP1ReturnsATS ? ats : Self.historicalBytes(ats: ats)) + Self.ok
        default: return Self.functionNotSupported
        }
    }

    /// READ BINARY `FF B0 00 page Le` → READ `30 page`. ACS: Le a multiple of 4 up to 16
    /// (00 = 16); Identiv: always one page; generic: Le bytes up to 16.
    private func readBinary(block: Int, le: UInt8, tag: VirtualTag) -> [UInt8] {
        guard tag.ats == nil else { return Self.functionNotSupported }
        guard block <= 0xFF else { return Self.functionNotSupported }
        let wanted = le == 0 ? 16 : Int(le)
        switch profile.family {
        case .acr122u, .acr1252u:
            guard wanted % 4 == 0, wanted <= 16 else { return Self.wrongLength }
        case .identiv, .omnikey, .springcard, .generic:
            guard wanted <= 16 else { return Self.wrongLength }
        }
        if state.withLock({ $0.lockedUp }) { return Self.failed }
        if let refusal = refusesReadsPastMemoryEnd, let pages = (tag as? VirtualType2Tag)?.product.totalPages,
           block + (wanted + 3) / 4 > pages {
            return refusal
        }
        guard let data = tag.respond(to: [0x30, UInt8(block)]), data.count == 16 else {
            if locksUpAfterFailedRead { state.withLock { $0.lockedUp = true } }
            return Self.failed
        }
        let count = profile.family == .identiv ? 4 : wanted
        return Array(data.prefix(count)) + Self.ok
    }

    /// UPDATE BINARY `FF D6 00 page 04 d0..d3` → WRITE `A2 page d0..d3`; ACK → `90 00`, else `63 00`.
    private func updateBinary(block: Int, body: [UInt8], tag: VirtualTag) -> [UInt8] {
        guard tag.ats == nil else { return Self.functionNotSupported }
        guard block <= 0xFF else { return Self.functionNotSupported }
        guard body.count == 5, body[0] == 4 else { return Self.wrongLength }
        let reply = tag.respond(to: [0xA2, UInt8(block)] + body[1 ..< 5])
        guard reply == [0x0A] else { return Self.failed }
        let misreported = state.withLock { state -> Bool in
            guard state.misreportedWrites > 0 else { return false }
            state.misreportedWrites -= 1
            return true
        }
        return misreported ? Self.failed : Self.ok
    }

    /// `FF 00 P1 P2 …`: ACR122U direct transmit (P1 P2 = 00 00), LED/buzzer (P1 = 40), buzzer on
    /// detection (P1 = 52). Other readers refuse them.
    private func escape(p1: UInt8, p2: UInt8, body: [UInt8], tag: VirtualTag) -> [UInt8] {
        guard profile.supportsLEDAndBuzzer || profile.supportsDirectTransmit else { return Self.functionNotSupported }
        switch (p1, p2) {
        case (0x00, 0x00):
            guard let lc = body.first, body.count == Int(lc) + 1, lc >= 2, body[1] == 0xD4 else { return Self.wrongLength }
            let reply = pn532(Array(body[2...]), tag: tag)
            if pn532ErrorsAsStatusWords {
                if reply.count == 3, reply[1] == 0x43, reply[2] & 0x3F == 0x01 { return [0x63, 0x01] }
                if reply.count == 3, reply[2] == 0x27 { return [0x63, 0x7F] }
            }
            return reply + Self.ok
        case (0x48, 0x00):
            // Get firmware version: ASCII, no status word (API v2.04 §6.3; nfcpy issue 105).
            guard let firmwareString else { return Self.functionNotSupported }
            return Array(firmwareString.utf8)
        case (0x40, _):
            guard body.count == 5, body[0] == 4 else { return Self.wrongLength }
            if ledCommandNeverAnswers { plan.stall() }
            return [0x90, setLED(p2)]
        case (0x52, 0x00), (0x52, 0xFF):
            state.withLock { $0.buzzerOnDetection = p2 == 0xFF }
            return Self.ok
        default:
            return Self.functionNotSupported
        }
    }

    /// LED control byte: bits 0/1 final red/green, bits 2/3 their update masks (blinking is not
    /// modelled). Returns the new state.
    private func setLED(_ control: UInt8) -> UInt8 {
        state.withLock { state in
            if control & 0x04 != 0 { state.ledState = (state.ledState & ~0x01) | (control & 0x01) }
            if control & 0x08 != 0 { state.ledState = (state.ledState & ~0x02) | (control & 0x02) }
            return state.ledState
        }
    }

    /// The PN532 inside an ACR122U: answers `D4 cmd …` with `D5 cmd+1 …`.
    private func pn532(_ command: [UInt8], tag: VirtualTag) -> [UInt8] {
        guard let code = command.first else { return [0xD5, 0x01] }
        let args = Array(command.dropFirst())
        switch code {
        case 0x42: // InCommunicateThru: status 01 (timeout) when the tag does not answer
            guard let reply = tag.respond(to: args) else { return [0xD5, 0x43, 0x01] }
            return [0xD5, 0x43, 0x00] + reply
        case 0x40: // InDataExchange to target 1
            guard args.first == 0x01, let reply = tag.respond(to: Array(args.dropFirst())) else { return [0xD5, 0x41, 0x01] }
            return [0xD5, 0x41, 0x00] + reply
        case 0x4A: // InListPassiveTarget (re-selects the tag)
            if let card = tag as? VirtualFeliCaCard {
                // FeliCa (BrTy 01/02, payload = Polling; docs/tags-and-readers.md §9.1): NbTg, Tg, POL_RES.
                guard args.count == 7, args[1] == 0x01 || args[1] == 0x02,
                      let response = card.respond(to: [0x06] + args[2...]) else { return [0xD5, 0x4B, 0x00] }
                return [0xD5, 0x4B, 0x01, 0x01] + response
            }
            tag.activate()
            var target: [UInt8] = [0x01] + tag.atqa + [tag.sak, UInt8(tag.uid.count)] + tag.uid
            if let ats = tag.ats { target += ats }
            return [0xD5, 0x4B, 0x01] + target
        case 0x02: return [0xD5, 0x03, 0x32, 0x01, 0x06, 0x07] // GetFirmwareVersion: PN532 v1.6
        case 0x44, 0x52: return [0xD5, code + 1, 0x00]         // InDeselect, InRelease
        default: return [0xD5, code &+ 1, 0x27]                // "command not acceptable"
        }
    }
}
