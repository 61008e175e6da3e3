import Dispatch
import Foundation

/// Core NFC's `NFCTagReaderSession`: detects tags by technology and talks to them directly
/// (APDUs to `.iso7816` tags, native commands to `.miFare` tags), NDEF included.
open class NFCTagReaderSession: NFCReaderSession {
    /// Apple's polling options, raw values included. Linux readers poll ISO 14443 and FeliCa (ISO 18092).
    public struct PollingOption: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let iso14443 = PollingOption(rawValue: 1)
        public static let iso15693 = PollingOption(rawValue: 2)
        public static let iso18092 = PollingOption(rawValue: 4)
        public static let pace = PollingOption(rawValue: 8)
    }

    public let pollingOption: PollingOption
    private weak var tagDelegate: (any NFCTagReaderSessionDelegate)?
    /// False for a session made for the `events` API: its tags come as `.tagsDetected`.
    private let hasDelegate: Bool

    /// Apple's initializer (`NFCReaderEnvironment.shared`, `NFCSessionConfiguration.shared`). nil for an empty polling option.
    /// Designated, as on iOS, so subclasses (mocks, wrappers) can call it.
    public init?(pollingOption: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil) {
        guard !pollingOption.isEmpty else { return nil }
        self.pollingOption = pollingOption
        self.tagDelegate = delegate
        self.hasDelegate = true
        super.init(queue: queue, configuration: .shared, environment: .shared)
        engine.host = self
    }

    /// Linux: with a configuration and an environment. nil for an empty polling option.
    public init?(pollingOption: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil,
                 configuration: NFCSessionConfiguration, environment: NFCReaderEnvironment = .shared) {
        guard !pollingOption.isEmpty else { return nil }
        self.pollingOption = pollingOption
        self.tagDelegate = delegate
        self.hasDelegate = true
        super.init(queue: queue, configuration: configuration, environment: environment)
        engine.host = self
    }

    /// Linux: a session without a delegate, for the async `events` API: each batch of tags comes as
    /// `.tagsDetected` (what `tagReaderSession(_:didDetect:)` gets). nil for an empty polling option.
    public init?(pollingOption: PollingOption, queue: DispatchQueue? = nil, configuration: NFCSessionConfiguration,
                 environment: NFCReaderEnvironment = .shared) {
        guard !pollingOption.isEmpty else { return nil }
        self.pollingOption = pollingOption
        self.hasDelegate = false
        super.init(queue: queue, configuration: configuration, environment: environment)
        engine.host = self
    }

    open override var delegate: Any? { tagDelegate }

    /// The tag of the last successful `connect(to:)`, until another connect, `restartPolling()`,
    /// the tag leaving or the session ending.
    public var connectedTag: NFCTag? { engine.connectedTag?.asNFCTag }

    /// Starts polling; without `.iso14443`, `.iso15693` or `.iso18092` in the polling option there is
    /// nothing Linux readers can poll for and the session ends with `.readerErrorUnsupportedFeature`.
    /// `.iso18092` needs declared FeliCa system codes (`configuration.feliCaSystemCodes`), else the
    /// session ends with `.readerErrorSecurityViolation`, as iOS does without the Info.plist list.
    open override func begin() {
        guard pollingOption.contains(.iso14443) || pollingOption.contains(.iso15693) || pollingOption.contains(.iso18092) else {
            engine.invalidate(NFCReaderError(.readerErrorUnsupportedFeature,
                                             message: "Linux readers poll ISO 14443, ISO 15693 and FeliCa only; add .iso14443, .iso15693 or .iso18092 to the polling option"),
                              byUser: false)
            return
        }
        if pollingOption.contains(.iso18092), engine.configuration.feliCaSystemCodes.isEmpty {
            engine.invalidate(NFCReaderError(.readerErrorSecurityViolation,
                                             message: "polling .iso18092 needs FeliCa system codes (NFCTAP_FELICA_SYSTEM_CODES or configuration.feliCaSystemCodes)"),
                              byUser: false)
            return
        }
        super.begin()
    }

    /// Tags handed out so far become invalid; the tags in the field come again in a later
    /// `tagReaderSession(_:didDetect:)`.
    open func restartPolling() {
        engine.restartPolling()
    }

    /// Connects to `tag`, dropping the connection to any other.
    @preconcurrency open func connect(to tag: NFCTag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        guard let tag = tag.ndefTag as? SessionTag else {
            sessionQueue.async {
                completionHandler(NFCReaderError(.readerErrorInvalidParameter, message: "not a tag of this session"))
            }
            return
        }
        engine.connect(tag, completion: completionHandler)
    }

    open func connect(to tag: NFCTag) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            connect(to: tag) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}

extension NFCTagReaderSession: SessionEngineHost {
    func engineDidBecomeActive(_ engine: SessionEngine) {
        showInitialAlert()
        deliver { [self] in tagDelegate?.tagReaderSessionDidBecomeActive(self) }
        engine.emit(.becameActive(readers: readersAtStart))
    }

    func engine(_ engine: SessionEngine, didDetect batch: [TagPresence]) {
        let generation = engine.generation
        let iso14443 = pollingOption.contains(.iso14443), iso15693 = pollingOption.contains(.iso15693)
        let tags: [NFCTag] = batch.compactMap { presence in
            switch presence.detected.technology {
            case .type2 where iso14443: return .miFare(MiFareSessionTag(engine: engine, presence: presence, generation: generation))
            case .type4 where iso14443: return .iso7816(ISO7816SessionTag(engine: engine, presence: presence, generation: generation))
            case .type5 where iso15693: return .iso15693(ISO15693SessionTag(engine: engine, presence: presence, generation: generation))
            case .feliCa where pollingOption.contains(.iso18092):
                return .feliCa(FeliCaSessionTag(engine: engine, presence: presence, generation: generation,
                                                allowedSystemCodes: engine.configuration.feliCaSystemCodes))
            default: return nil
            }
        }
        guard !tags.isEmpty else { return }
        engine.pausePolling()
        if hasDelegate {
            deliver { [self] in tagDelegate?.tagReaderSession(self, didDetect: tags) }
        } else {
            engine.emit(.tagsDetected(tags))
        }
    }

    func engine(_ engine: SessionEngine, didInvalidateWith error: NFCReaderError) {
        onSessionQueue { [self] in
            tagDelegate?.tagReaderSession(self, didInvalidateWithError: error)
        }
    }
}
