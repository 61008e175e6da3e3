import Foundation

/// Core NFC's `NFCFeliCaPollingRequestCode`, raw values included.
public enum NFCFeliCaPollingRequestCode: Int, Sendable {
    case noRequest = 0
    case systemCode = 1
    case communicationPerformance = 2
}

/// Core NFC's `NFCFeliCaPollingTimeSlot`, raw values included.
public enum NFCFeliCaPollingTimeSlot: Int, Sendable {
    case max1 = 0
    case max2 = 1
    case max4 = 3
    case max8 = 7
    case max16 = 15
}

/// Core NFC's `NFCFeliCaTag` (docs/tags-and-readers.md §9.5). Sessions hand out FeliCa cards found
/// by readers that reach them (libnfc PN53x, PC/SC pass-through readers). The commands are
/// requirements, so calls through `any NFCFeliCaTag` reach the session's tag; the defaults below
/// (for types an app declares itself, such as test mocks) answer `.readerErrorUnsupportedFeature`.
/// The async and iOS 14 `resultHandler:` forms are built on the completion-handler forms.
public protocol NFCFeliCaTag: __NFCTag, NFCNDEFTag {
    var currentSystemCode: Data { get }
    var currentIDm: Data { get }

    func polling(systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
                 completionHandler: @escaping @Sendable (Data, Data, (any Error)?) -> Void)
    func requestService(nodeCodeList: [Data], completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    func requestResponse(completionHandler: @escaping @Sendable (Int, (any Error)?) -> Void)
    func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data],
                               completionHandler: @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void)
    func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data],
                                completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void)
    func requestSystemCode(completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    func requestServiceV2(nodeCodeList: [Data],
                          completionHandler: @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void)
    func requestSpecificationVersion(completionHandler: @escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void)
    func resetMode(completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void)
    func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
}

extension NFCFeliCaTag {
    public typealias PollingRequestCode = NFCFeliCaPollingRequestCode
    public typealias PollingTimeSlot = NFCFeliCaPollingTimeSlot

    @preconcurrency public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot,
                        completionHandler: @escaping @Sendable (Data, Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(Data(), Data(), $0) }
    }

    @preconcurrency public func requestService(nodeCodeList: [Data], completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    @preconcurrency public func requestSystemCode(completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    @preconcurrency public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data],
                                      completionHandler: @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, [], $0) }
    }

    @preconcurrency public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data],
                                       completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, $0) }
    }

    @preconcurrency public func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(Data(), $0) }
    }

    @preconcurrency public func requestServiceV2(nodeCodeList: [Data],
                                 completionHandler: @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, .AES, [], [], $0) }
    }

    @preconcurrency public func requestResponse(completionHandler: @escaping @Sendable (Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, $0) }
    }

    @preconcurrency public func requestSpecificationVersion(completionHandler: @escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, Data(), Data(), $0) }
    }

    @preconcurrency public func resetMode(completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, $0) }
    }
}

/// The answer of tag families Linux readers never produce.
enum UnsupportedTagCommand {
    static var error: NFCReaderError {
        NFCReaderError(.readerErrorUnsupportedFeature, message: "Linux readers do not poll this tag technology")
    }

    /// Calls `handler` with the error, asynchronously as Core NFC's handlers are.
    static func fail(_ handler: @escaping @Sendable ((any Error)?) -> Void) {
        DispatchQueue.global().async { handler(error) }
    }

    /// The same for the iOS 14 `resultHandler:` forms.
    static func failResult<Success>(_ handler: @escaping @Sendable (Result<Success, any Error>) -> Void) {
        DispatchQueue.global().async { handler(.failure(error)) }
    }
}
