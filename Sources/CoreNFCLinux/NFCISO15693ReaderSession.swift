import Dispatch
import Foundation

/// Core NFC's `NFCReaderSessionDelegate`: the delegate of the iOS 11 `NFCISO15693ReaderSession`.
/// Apple's Swift overlay types the tags `[__NFCTag]` (the name `NFCTag` is the enum).
public protocol NFCReaderSessionDelegate: AnyObject {
    func readerSessionDidBecomeActive(_ session: NFCReaderSession)
    func readerSession(_ session: NFCReaderSession, didDetect tags: [any __NFCTag])
    func readerSession(_ session: NFCReaderSession, didInvalidateWithError error: any Error)
}

extension NFCReaderSessionDelegate {
    /// Never called on Linux (the ISO 15693 session ends at `begin()`).
    public func readerSessionDidBecomeActive(_ session: NFCReaderSession) {}
}

/// Core NFC's iOS 11 `NFCISO15693ReaderSession` (deprecated by Apple since iOS 13 in favour of
/// `NFCTagReaderSession(pollingOption: .iso15693, …)`). Declared so code that still offers it
/// compiles; Linux readers do not poll ISO 15693, so `readingAvailable` is false and `begin()`
/// ends the session with `.readerErrorUnsupportedFeature` (1).
open class NFCISO15693ReaderSession: NFCReaderSession {
    private weak var readerDelegate: (any NFCReaderSessionDelegate)?

    public init(delegate: any NFCReaderSessionDelegate, queue: DispatchQueue? = nil) {
        self.readerDelegate = delegate
        super.init(queue: queue, configuration: .shared, environment: .shared)
        engine.host = self
    }

    /// Linux: with a configuration and an environment, like the other sessions.
    public init(delegate: any NFCReaderSessionDelegate, queue: DispatchQueue?, configuration: NFCSessionConfiguration,
                environment: NFCReaderEnvironment = .shared) {
        self.readerDelegate = delegate
        super.init(queue: queue, configuration: configuration, environment: environment)
        engine.host = self
    }

    /// False: Linux readers do not poll ISO 15693.
    open override class var readingAvailable: Bool { false }

    open override var delegate: Any? { readerDelegate }

    /// Ends the session at once with `.readerErrorUnsupportedFeature` (1).
    open override func begin() {
        engine.invalidate(NFCReaderError(.readerErrorUnsupportedFeature, message: "Linux readers do not poll ISO 15693"),
                          byUser: false)
    }

    /// Nothing to restart: the session never polls.
    open func restartPolling() {}
}

extension NFCISO15693ReaderSession: SessionEngineHost {
    func engineDidBecomeActive(_ engine: SessionEngine) {
        deliver { [self] in readerDelegate?.readerSessionDidBecomeActive(self) }
    }

    func engine(_ engine: SessionEngine, didDetect batch: [TagPresence]) {}

    func engine(_ engine: SessionEngine, didInvalidateWith error: NFCReaderError) {
        onSessionQueue { [self] in
            readerDelegate?.readerSession(self, didInvalidateWithError: error)
        }
    }
}

/// Core NFC's `NFCTagCommandConfiguration`: retries of the iOS 11 ISO 15693 commands.
// @unchecked: a mutable, subclassable NSObject as Apple's; Sendable since this API's first release, kept for callers. Copy before sharing.
public class NFCTagCommandConfiguration: NSObject, NSCopying, @unchecked Sendable {
    public var maximumRetries: Int = 0
    public var retryInterval: TimeInterval = 0

    public override init() { super.init() }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = NFCTagCommandConfiguration()
        copy.maximumRetries = maximumRetries
        copy.retryInterval = retryInterval
        return copy
    }
}

/// Core NFC's `NFCISO15693CustomCommandConfiguration` (iOS 11 custom command, 0xA0–0xDF).
// @unchecked: as its superclass (mutable, subclassable, Sendable since the first release).
public class NFCISO15693CustomCommandConfiguration: NFCTagCommandConfiguration, @unchecked Sendable {
    public var manufacturerCode: Int
    public var customCommandCode: Int
    public var requestParameters: Data

    public init(manufacturerCode: Int, customCommandCode: Int, requestParameters: Data?) {
        self.manufacturerCode = manufacturerCode
        self.customCommandCode = customCommandCode
        self.requestParameters = requestParameters ?? Data()
        super.init()
    }

    public convenience init(manufacturerCode: Int, customCommandCode: Int, requestParameters: Data?, maximumRetries: Int,
                            retryInterval: TimeInterval) {
        self.init(manufacturerCode: manufacturerCode, customCommandCode: customCommandCode, requestParameters: requestParameters)
        self.maximumRetries = maximumRetries
        self.retryInterval = retryInterval
    }
}

/// Core NFC's `NFCISO15693ReadMultipleBlocksConfiguration` (iOS 11 chunked Read Multiple Blocks).
// @unchecked: as its superclass (mutable, subclassable, Sendable since the first release).
public class NFCISO15693ReadMultipleBlocksConfiguration: NFCTagCommandConfiguration, @unchecked Sendable {
    public var range: NSRange
    public var chunkSize: Int

    public init(range: NSRange, chunkSize: Int) {
        self.range = range
        self.chunkSize = chunkSize
        super.init()
    }

    public convenience init(range: NSRange, chunkSize: Int, maximumRetries: Int, retryInterval: TimeInterval) {
        self.init(range: range, chunkSize: chunkSize)
        self.maximumRetries = maximumRetries
        self.retryInterval = retryInterval
    }
}

extension NFCISO15693Tag {
    /// iOS 11 legacy command; error 1 on Linux as every ISO 15693 command.
    /// Not `@Sendable`, as in Apple's SDK (an iOS 11 declaration).
    public func sendCustomCommand(commandConfiguration: NFCISO15693CustomCommandConfiguration,
                                  completionHandler: @escaping (Data, (any Error)?) -> Void) {
        let completionHandler = UncheckedBox(completionHandler)  // called once, on one queue
        UnsupportedTagCommand.fail { completionHandler.value(Data(), $0) }
    }

    /// iOS 11 legacy command; error 1 on Linux as every ISO 15693 command.
    /// Not `@Sendable`, as `sendCustomCommand` (an iOS 11 declaration).
    public func readMultipleBlock(readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration,
                                  completionHandler: @escaping (Data, (any Error)?) -> Void) {
        let completionHandler = UncheckedBox(completionHandler)  // called once, on one queue
        UnsupportedTagCommand.fail { completionHandler.value(Data(), $0) }
    }
}
