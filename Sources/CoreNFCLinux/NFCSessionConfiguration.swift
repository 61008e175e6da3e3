import Foundation
import ReaderCore

/// Which readers a session listens to. Name queries follow `ReaderSelection`'s one rule: the
/// reader named exactly so, else the one reader whose name contains the text (ignoring case); a
/// text several readers contain is refused when the session begins (code 1, naming them), and a
/// reader arriving later joins only if it keeps every text naming one reader.
public enum NFCReaderFilter: Sendable, Equatable {
    /// Every attached reader (the default).
    case all
    /// The reader named so, or the one reader whose name contains the text (`--reader ACR122`).
    case nameContains(String)
    /// The reader with exactly this name.
    case exactName(String)
    /// One reader per text, each as `nameContains` (`--reader A --reader B`).
    case nameContainsAny([String])

    /// The filter for `--reader` options / the kiosk's `readers`: all readers when `queries` is empty.
    public init(readerQueries queries: [String]) {
        switch queries.count {
        case 0: self = .all
        case 1: self = .nameContains(queries[0])
        default: self = .nameContainsAny(queries)
        }
    }

    /// The name queries; empty for `.all`.
    var queries: [String] {
        switch self {
        case .all: return []
        case let .nameContains(text): return [text]
        case let .exactName(name): return [name]
        case let .nameContainsAny(texts): return texts
        }
    }

    func matches(_ reader: ReaderInfo) -> Bool {
        switch self {
        case .all: return true
        case let .exactName(name): return reader.name == name
        case .nameContains, .nameContainsAny: return queries.contains { ReaderSelection.matches($0, name: reader.name) }
        }
    }

    /// The readers among `attached` the session starts with.
    /// - Throws: `ReaderError.ambiguousReader` when a text names several of them.
    func select(from attached: [ReaderInfo]) throws -> [ReaderInfo] {
        if case let .exactName(name) = self { return attached.filter { $0.name == name } }
        return try ReaderSelection.select(queries, from: attached)
    }

    /// Whether `reader`, arriving while `current` are in use, joins the session.
    func admits(_ reader: ReaderInfo, current: [ReaderInfo]) -> Bool {
        guard matches(reader) else { return false }
        if case .exactName = self { return true }
        return ReaderSelection.admits(reader, queries: queries, current: current)
    }
}

/// Linux additions to a session: what iOS decides for the app, a desk or kiosk tool chooses.
/// Set `session.configuration` before `begin()`; later changes are ignored.
public struct NFCSessionConfiguration: Sendable {
    /// The session ends with `.readerSessionInvalidationErrorSessionTimeout` (201) this long after
    /// `begin()`. iOS: 60 s. nil = no limit.
    public var timeLimit: Duration? = .seconds(60)
    /// Readers the session uses; readers plugged in later that match join the session.
    public var readerFilter: NFCReaderFilter = .all
    /// true (iOS behaviour): a reader unplugged or the reader service lost mid-session ends the
    /// session with 202. false (kiosk): that reader's tags are lost and the session goes on,
    /// waiting for readers; `begin()` then also accepts zero readers.
    public var readerRemovalEndsSession: Bool = true
    /// Tags arriving within this window of the first are reported together in one callback.
    /// Not waited for when the session has a single reader (its batch cannot grow).
    public var batchWindow: Duration = .milliseconds(100)
    /// The deadline of every tag operation (a read, `connect(to:)`, one command). A tag that has not
    /// answered by then is reported lost (`.readerTransceiveErrorTagConnectionLost`, 100) and its
    /// connection abandoned, while the session and other readers go on. nil = no deadline.
    public var operationTimeout: Duration? = .seconds(5)
    /// Connect to tags exclusively (PC/SC `SCARD_SHARE_EXCLUSIVE`).
    public var exclusiveAccess: Bool = true
    /// Application identifiers tried in order with SELECT when connecting to an ISO 7816 tag
    /// (iOS reads them from Info.plist); the first answered with 90 00 becomes `initialSelectedAID`.
    public var iso7816SelectIdentifiers: [[UInt8]] = []
    /// FeliCa system codes (2 bytes each, no `FF`) a tag reader session polling `.iso18092` selects,
    /// tried in order when connecting to a FeliCa card: iOS's Info.plist key
    /// `com.apple.developer.nfc.readersession.felica.systemcodes` (docs/tags-and-readers.md §9.5).
    /// Default: the environment variable `NFCTAP_FELICA_SYSTEM_CODES` (`12FC,0003`), else none.
    public var feliCaSystemCodes: [[UInt8]] = NFCSessionConfiguration.feliCaSystemCodes(
        fromList: getenv("NFCTAP_FELICA_SYSTEM_CODES").map { String(cString: $0) } ?? "") ?? []
    /// Read sessions also ask each tag what it is (product, capacity, writability) for
    /// `NFCTagReport.details`: a few more exchanges per tag.
    public var collectTagDetails: Bool = false
    /// LED/buzzer feedback on readers that have them (green + beep for a tap read, red for a failure).
    public var readerFeedback: Bool = true
    /// Called on the session queue for every tag a read session reads, before the reader's feedback;
    /// its answer decides it: true = success (green + beep), false = failure (red). `inventory` appends
    /// and flushes its record here, so a beep means the record is on disk.
    public var tagReportHandler: (@Sendable (NFCTagReport) -> Bool)? = nil
    /// Shows `alertMessage` and `invalidate(errorMessage:)` texts to the user. Default: stderr.
    public var alertHandler: @Sendable (String) -> Void = { message in
        StandardError.write(message + "\n")
    }

    /// true: while this session runs, `nfctap agent` (background reading) lets go of the readers,
    /// as iOS pauses background reading during an app's session. The agent's own session sets false.
    public var pausesBackgroundReading: Bool = true

    public init() {}

    /// Parses `12FC,0003` (hex, separated by commas or spaces); nil when an entry is not 2 bytes
    /// of hex or contains the wildcard byte `FF` (iOS refuses such a list).
    public static func feliCaSystemCodes(fromList text: String) -> [[UInt8]]? {
        var codes: [[UInt8]] = []
        for entry in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            guard entry.count == 4, let code = [UInt8](hex: String(entry)), code.count == 2, !code.contains(0xFF) else { return nil }
            codes.append(code)
        }
        return codes
    }
}
