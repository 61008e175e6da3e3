import Dispatch
import Foundation
import ReaderCore

/// Core NFC's `NFCReaderSessionDelegate`: the delegate of the iOS 11 `NFCISO15693ReaderSession`.
/// Apple's Swift overlay types the tags `[__NFCTag]` (the name `NFCTag` is the enum).
public protocol NFCReaderSessionDelegate: AnyObject {
    func readerSessionDidBecomeActive(_ session: NFCReaderSession)
    func readerSession(_ session: NFCReaderSession, didDetect tags: [any __NFCTag])
    func readerSession(_ session: NFCReaderSession, didInvalidateWithError error: any Error)
}

extension NFCReaderSessionDelegate {
    public func readerSessionDidBecomeActive(_ session: NFCReaderSession) {}
}

/// Core NFC's iOS 11 `NFCISO15693ReaderSession` (deprecated by Apple since iOS 13 in favour of
/// `NFCTagReaderSession(pollingOption: .iso15693, …)`): polls the readers that reach ISO 15693
/// tags (docs/tags-and-readers.md §7.10) and hands out `NFCISO15693Tag`s; other tags are ignored.
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

    /// True: PC/SC readers with an ISO 15693 radio are polled (a reader without one never reports such a tag).
    open override class var readingAvailable: Bool { true }

    open override var delegate: Any? { readerDelegate }

    /// Tags handed out so far become invalid; tags in the field come again.
    open func restartPolling() {
        engine.restartPolling()
    }
}

extension NFCISO15693ReaderSession: SessionEngineHost {
    func engineDidBecomeActive(_ engine: SessionEngine) {
        deliver { [self] in readerDelegate?.readerSessionDidBecomeActive(self) }
    }

    func engine(_ engine: SessionEngine, didDetect batch: [TagPresence]) {
        let generation = engine.generation
        let tags: [any __NFCTag] = batch.filter { $0.detected.technology == .type5 }.map {
            ISO15693SessionTag(engine: engine, presence: $0, generation: generation)
        }
        guard !tags.isEmpty else { return }
        engine.pausePolling()
        deliver { [self] in readerDelegate?.readerSession(self, didDetect: tags) }
    }

    func engine(_ engine: SessionEngine, didInvalidateWith error: NFCReaderError) {
        onSessionQueue { [self] in
            readerDelegate?.readerSession(self, didInvalidateWithError: error)
        }
    }
}

/// Core NFC's `NFCTagCommandConfiguration`: retries of the iOS 11 ISO 15693 commands.
/// Not `Sendable`, as in Apple's SDK: a mutable, subclassable `NSObject`; the commands read it on
/// the caller's thread.
public class NFCTagCommandConfiguration: NSObject, NSCopying {
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
public class NFCISO15693CustomCommandConfiguration: NFCTagCommandConfiguration {
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
public class NFCISO15693ReadMultipleBlocksConfiguration: NFCTagCommandConfiguration {
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
    /// iOS 11 legacy custom command (`A0`–`DF`, the configuration's manufacturer code after it).
    /// Not `@Sendable`, as in Apple's SDK (an iOS 11 declaration).
    public func sendCustomCommand(commandConfiguration: NFCISO15693CustomCommandConfiguration,
                                  completionHandler: @escaping (Data, (any Error)?) -> Void) {
        let completionHandler = legacyHandler(completionHandler)
        let code = commandConfiguration.customCommandCode
        guard (0xA0 ... 0xDF).contains(code) else {
            return UnsupportedTagCommand.fail { error in completionHandler.async { $0(Data(), error) } }
        }
        let parameters = [UInt8(truncatingIfNeeded: commandConfiguration.manufacturerCode)] + commandConfiguration.requestParameters
        iso15693(.highDataRate, UInt8(code), parameters, parse: { Data($0) }) { result in
            completionHandler.async { $0((try? result.get()) ?? Data(), result.failureValue) }
        }
    }

    /// iOS 11 legacy Read Multiple Blocks of `range` in one command (the chunk size is not split
    /// further here); the blocks' bytes joined.
    /// Not `@Sendable`, as `sendCustomCommand` (an iOS 11 declaration).
    public func readMultipleBlock(readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration,
                                  completionHandler: @escaping (Data, (any Error)?) -> Void) {
        let completionHandler = legacyHandler(completionHandler)
        multiBlockRead(.highDataRate, 0x23, readConfiguration.range, extended: false) { result in
            completionHandler.async { $0(Data(((try? result.get()) ?? []).joined()), result.failureValue) }
        }
    }

    /// The app's handler (not `@Sendable` in these iOS 11 declarations), bound to the queue it is
    /// called on: the session queue of a session's tag, a private serial queue for any other tag.
    private func legacyHandler<Handler>(_ handler: Handler) -> QueueBound<Handler> {
        QueueBound(unchecked: handler, to: (self as? any SessionTag)?.engine.sessionQueue ?? DispatchQueue(label: "nfctap.iso15693.legacy-handler"))
    }
}
