import Dispatch
import Foundation
import Synchronization

/// Core NFC's `NFCVASCommandConfiguration`: one Wallet pass type a VAS session asks for.
/// Mutable as Apple's; its fields sit behind a lock, so it is `Sendable` by the compiler's check
/// (final: code outside this module cannot subclass a `public` class anyway).
public final class NFCVASCommandConfiguration: NSObject, NSCopying, Sendable {
    /// Apple's VAS modes, raw values included.
    public enum Mode: Int, Sendable {
        case urlOnly = 0
        case normal = 1
    }

    private struct Fields {
        var mode: Mode
        var passTypeIdentifier: String
        var url: URL?
    }

    private let fields: Mutex<Fields>

    public var mode: Mode {
        get { fields.withLock { $0.mode } }
        set { fields.withLock { $0.mode = newValue } }
    }

    public var passTypeIdentifier: String {
        get { fields.withLock { $0.passTypeIdentifier } }
        set { fields.withLock { $0.passTypeIdentifier = newValue } }
    }

    public var url: URL? {
        get { fields.withLock { $0.url } }
        set { fields.withLock { $0.url = newValue } }
    }

    public init(vasMode mode: Mode, passTypeIdentifier: String, url: URL?) {
        self.fields = Mutex(Fields(mode: mode, passTypeIdentifier: passTypeIdentifier, url: url))
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        NFCVASCommandConfiguration(vasMode: mode, passTypeIdentifier: passTypeIdentifier, url: url)
    }
}

/// Core NFC's `NFCVASResponse`: a pass's answer. Declared for code that handles it; a Linux VAS
/// session never receives one.
/// Only `let`s of Sendable types: `Sendable` by the compiler's check.
public final class NFCVASResponse: NSObject, NSCopying, Sendable {
    /// Apple's VAS status words, raw values included.
    public enum ErrorCode: Int, Sendable {
        case success = 0x9000
        case dataNotFound = 0x6A83
        case dataNotActivated = 0x6287
        case wrongParameters = 0x6B00
        case wrongLCField = 0x6700
        case userIntervention = 0x6984
        case incorrectData = 0x6A80
        case unsupportedApplicationVersion = 0x6340
    }

    public let status: ErrorCode
    public let vasData: Data
    public let mobileToken: Data

    /// Linux: for tests and mocks (iOS makes these itself).
    public init(status: ErrorCode, vasData: Data, mobileToken: Data) {
        self.status = status
        self.vasData = vasData
        self.mobileToken = mobileToken
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// Core NFC's `NFCVASReaderSessionDelegate`. Apple's optional method has a default implementation
/// (see `NFCNDEFReaderSessionDelegate` for the caveat).
public protocol NFCVASReaderSessionDelegate: AnyObject {
    /// Optional. Never called on Linux (the session ends at `begin()`).
    func readerSessionDidBecomeActive(_ session: NFCVASReaderSession)
    /// The session ended; on Linux always with `.readerErrorUnsupportedFeature` (1) or 200.
    func readerSession(_ session: NFCVASReaderSession, didInvalidateWithError error: any Error)
    /// Pass answers; never called on Linux.
    func readerSession(_ session: NFCVASReaderSession, didReceive responses: [NFCVASResponse])
}

extension NFCVASReaderSessionDelegate {
    public func readerSessionDidBecomeActive(_ session: NFCVASReaderSession) {}
}

/// Core NFC's `NFCVASReaderSession` (Apple Wallet value-added services). Declared so iOS code
/// that offers it compiles; VAS needs Apple's protocol keys and terminal certification, so
/// `readingAvailable` is false and `begin()` ends the session with `.readerErrorUnsupportedFeature`.
open class NFCVASReaderSession: NFCReaderSession {
    public let vasCommandConfigurations: [NFCVASCommandConfiguration]
    private weak var vasDelegate: (any NFCVASReaderSessionDelegate)?

    public init(vasCommandConfigurations: [NFCVASCommandConfiguration], delegate: any NFCVASReaderSessionDelegate,
                queue: DispatchQueue?) {
        self.vasCommandConfigurations = vasCommandConfigurations
        self.vasDelegate = delegate
        super.init(queue: queue, configuration: .shared, environment: .shared)
        engine.host = self
    }

    /// Linux: with a configuration and an environment, like the other sessions.
    public init(vasCommandConfigurations: [NFCVASCommandConfiguration], delegate: any NFCVASReaderSessionDelegate,
                queue: DispatchQueue?, configuration: NFCSessionConfiguration, environment: NFCReaderEnvironment = .shared) {
        self.vasCommandConfigurations = vasCommandConfigurations
        self.vasDelegate = delegate
        super.init(queue: queue, configuration: configuration, environment: environment)
        engine.host = self
    }

    /// False: no Linux reader offers Apple VAS.
    open override class var readingAvailable: Bool { false }

    open override var delegate: Any? { vasDelegate }

    /// Ends the session at once with `.readerErrorUnsupportedFeature` (1).
    open override func begin() {
        engine.invalidate(NFCReaderError(.readerErrorUnsupportedFeature,
                                         message: "Apple VAS (Wallet passes) is not available on Linux readers"),
                          byUser: false)
    }
}

extension NFCVASReaderSession: SessionEngineHost {
    func engineDidBecomeActive(_ engine: SessionEngine) {
        deliver { [self] in vasDelegate?.readerSessionDidBecomeActive(self) }
    }

    func engine(_ engine: SessionEngine, didDetect batch: [TagPresence]) {}

    func engine(_ engine: SessionEngine, didInvalidateWith error: NFCReaderError) {
        onSessionQueue { [self] in
            vasDelegate?.readerSession(self, didInvalidateWithError: error)
        }
    }
}
