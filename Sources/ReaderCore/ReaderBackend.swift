import NFCTags

/// Which stack reaches a reader.
public enum ReaderBackendKind: String, Sendable, Codable {
    case pcsc
    case libnfc
    /// In-process emulated readers (`nfctap demo`, tests).
    case virtual
}

/// A reader as users see it. `name` is what `--reader` matches: the PC/SC name
/// (`ACS ACR122U PICC Interface 00 00`) or `libnfc:<connstring>`.
public struct ReaderInfo: Hashable, Sendable {
    public var name: String
    public var backend: ReaderBackendKind
    /// The reader has an LED/buzzer the project can drive (ACR122U class).
    public var supportsFeedback: Bool

    public init(name: String, backend: ReaderBackendKind, supportsFeedback: Bool = false) {
        self.name = name
        self.backend = backend
        self.supportsFeedback = supportsFeedback
    }
}

/// What the radio layer knows about a tag before talking to it.
public enum TagTechnology: String, Sendable, Hashable {
    /// ISO 14443-3A storage tag: NFC Forum Type 2 (NTAG, Ultralight).
    case type2
    /// ISO 14443-4 (ISO-DEP): NFC Forum Type 4 or any ISO 7816 card.
    case type4
    /// ISO 15693 (NFC-V): NFC Forum Type 5 (ICODE, ST25DV/TV, Tag-it; docs/tags-and-readers.md §7).
    case type5
    /// FeliCa (NFC-F, NFC Forum Type 3): IDm/PMm from Polling, or the PC/SC standard byte `11` /
    /// card name `00 3B` (docs/tags-and-readers.md §9).
    case feliCa = "felica"
    /// A low-frequency card (< 135 kHz: EM4100, HID Prox, Hitag…), PC/SC standard byte `40`.
    case lowFrequency
    /// MIFARE Classic 1K/4K/Mini: card name `00 01`/`00 02`/`00 26` in the ATR, SAK `08`/`18`/`09`
    /// (docs/tags-and-readers.md §10).
    case mifareClassic
    /// Something else (ISO 14443 B storage cards, iCLASS, ...): reported, not read.
    case other
}

/// A tag present on a reader. `presence` distinguishes one arrival from the next
/// arrival of the same tag on the same reader.
public struct DetectedTag: Hashable, Sendable {
    public var reader: ReaderInfo
    public var technology: TagTechnology
    public var uid: [UInt8]
    /// The PC/SC ATR (for libnfc a synthesized PC/SC-style ATR so both backends look alike).
    public var atr: [UInt8]
    /// ISO 14443-4 historical bytes (from the ATS); empty for Type 2.
    public var historicalBytes: [UInt8]
    public var presence: UInt64
    /// ISO 14443-A ATQA (SENS_RES, 2 bytes as received) and SAK (SEL_RES), where the backend
    /// knows them: libnfc and the virtual backend do; PC/SC readers give only the ATR.
    public var atqa: [UInt8]?
    public var sak: UInt8?
    /// For FeliCa cards: the Polling answer (IDm = `uid`, PMm, system code); nil otherwise.
    public var feliCa: FeliCaIdentity?

    public init(reader: ReaderInfo, technology: TagTechnology, uid: [UInt8], atr: [UInt8],
                historicalBytes: [UInt8] = [], presence: UInt64) {
        self.reader = reader
        self.technology = technology
        self.uid = uid
        self.atr = atr
        self.historicalBytes = historicalBytes
        self.presence = presence
    }

    /// A FeliCa card: `uid` is its IDm.
    public init(reader: ReaderInfo, feliCa: FeliCaIdentity, atr: [UInt8], presence: UInt64) {
        self.init(reader: reader, technology: .feliCa, uid: feliCa.idm, atr: atr, presence: presence)
        self.feliCa = feliCa
    }
}

/// Everything a backend reports while monitoring.
public enum ReaderEvent: Sendable {
    case readerAdded(ReaderInfo)
    case readerRemoved(ReaderInfo)
    case tagArrived(DetectedTag)
    case tagLeft(DetectedTag)
    /// The service under the backend went away (pcscd stopped, libnfc device closed).
    /// The monitor keeps retrying and reports `.serviceRestored` when it is back.
    case serviceLost(ReaderError)
    case serviceRestored
}

/// Visual/audible confirmation on the reader itself.
public enum ReaderFeedback: Sendable {
    case success
    case failure
}

/// One reader stack. Implementations: PC/SC, libnfc, virtual. Every call throws `ReaderError` only
/// (typed): the backend translates its library's codes at its edge (docs/architecture.md "Errors").
public protocol ReaderBackend: AnyObject, Sendable {
    var kind: ReaderBackendKind { get }
    /// Readers attached now; an empty list when there are none.
    /// - Throws: `ReaderError.serviceUnavailable` when the service (pcscd) is not reachable.
    func listReaders() throws(ReaderError) -> [ReaderInfo]
    /// Watches readers and tags on a background thread until `stop()`; `handler` is called on that
    /// thread, in order. The first events report the readers (and tags) present at the start.
    func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws(ReaderError) -> ReaderMonitor
    /// Opens a connection to a tag that is on its reader now.
    /// - Throws: `ReaderError` (`.readerBusy` when another process holds the reader, `.tagGone`).
    func connect(to tag: DetectedTag, exclusive: Bool) throws(ReaderError) -> TagConnection
}

public protocol ReaderMonitor: AnyObject, Sendable {
    /// Stops monitoring; returns once the background thread will call the handler no more.
    func stop()
}

/// An open connection to one tag.
public protocol TagConnection: AnyObject {
    var tag: DetectedTag { get }
    /// ISO 7816 APDU channel (Type 4 and other ISO-DEP cards); nil for Type 2.
    var apdu: Transceiver? { get }
    /// Type 2 command channel; nil for ISO-DEP cards.
    var type2: Type2Link? { get }
    /// ISO 15693 command channel for `.type5` tags; nil otherwise (and on readers that cannot
    /// reach one).
    var iso15693: ISO15693Link? { get }
    /// FeliCa frame channel (`LEN CMD …` both ways, docs/tags-and-readers.md §9.2); nil for other
    /// tags and for readers that cannot pass FeliCa frames.
    var feliCa: Transceiver? { get }
    /// MIFARE Classic block access (the reader does Crypto1) for `.mifareClassic` cards; nil otherwise.
    var mifareClassic: MifareClassicLink? { get }
    /// LED/buzzer feedback where the reader supports it; does nothing elsewhere.
    func signal(_ feedback: ReaderFeedback)
    /// Closes the connection. May block while an exchange is stuck: call it on the reader's lane.
    func disconnect()
    /// Gives the connection up from any thread without blocking: later exchanges fail with
    /// `TagError.tagLost`, and the backend interrupts a stuck one where its stack can (libnfc
    /// `nfc_abort_command`; the virtual backend releases a stalled tag). A stuck `SCardTransmit`
    /// cannot be interrupted in pcsc-lite (its context lock is held): it is left to return by
    /// itself on its lane, and its result is ignored.
    func abandon()
    /// What `abandon()` does, as an action another thread may keep and run (the session engine
    /// gives a connection up from its queue while the lane works through it).
    var abandoner: @Sendable () -> Void { get }
}

extension TagConnection {
    public func abandon() { abandoner() }
    public var abandoner: @Sendable () -> Void { {} }
    public var iso15693: ISO15693Link? { nil }
    public var mifareClassic: MifareClassicLink? { nil }
    public var feliCa: Transceiver? { nil }
}

/// Errors at the reader level, shared by every backend.
public enum ReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// pcscd (or the libnfc device) cannot be reached. `hint` says how to fix it.
    case serviceUnavailable(hint: String)
    /// No reader is attached.
    case noReaders
    /// `--reader` matched nothing / more than one reader.
    case readerNotFound(String)
    case ambiguousReader(String, matches: [String])
    /// Another process holds the reader exclusively.
    case readerBusy(String)
    /// The reader disappeared.
    case readerGone(String)
    /// The tag left before or during connect.
    case tagGone
    /// Anything else, with the backend's raw code.
    case other(code: Int, message: String)

    public var description: String {
        switch self {
        case let .serviceUnavailable(hint): return hint
        case .noReaders: return "no NFC reader is attached"
        case let .readerNotFound(name): return "no reader matches \"\(name)\""
        case let .ambiguousReader(name, matches): return "\"\(name)\" matches several readers: \(matches.joined(separator: ", "))"
        case let .readerBusy(name): return "reader \(name) is in use by another process"
        case let .readerGone(name): return "reader \(name) was disconnected"
        case .tagGone: return "the tag left the reader"
        case let .other(code, message): return "\(message) (code \(code))"
        }
    }
}
