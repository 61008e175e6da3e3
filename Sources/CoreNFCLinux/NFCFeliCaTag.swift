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

/// Core NFC's `NFCFeliCaTag`. Declared so iOS code that switches over every `NFCTag` case
/// compiles; Linux readers never produce one (no FeliCa polling), so the commands below only
/// exist as defaults that fail with `.readerErrorUnsupportedFeature`.
public protocol NFCFeliCaTag: __NFCTag, NFCNDEFTag {
    var currentSystemCode: Data { get }
    var currentIDm: Data { get }
}

extension NFCFeliCaTag {
    public typealias PollingRequestCode = NFCFeliCaPollingRequestCode
    public typealias PollingTimeSlot = NFCFeliCaPollingTimeSlot

    @preconcurrency public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot,
                        completionHandler: @escaping @Sendable (Data, Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(Data(), Data(), $0) }
    }

    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot) async throws -> (Data, Data) {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func requestService(nodeCodeList: [Data], completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    public func requestService(nodeCodeList: [Data]) async throws -> [Data] {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func requestSystemCode(completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    public func requestSystemCode() async throws -> [Data] {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data],
                                      completionHandler: @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, [], $0) }
    }

    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (Int, Int, [Data]) {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data],
                                       completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, $0) }
    }

    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (Int, Int) {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(Data(), $0) }
    }

    public func sendFeliCaCommand(commandPacket: Data) async throws -> Data {
        throw UnsupportedTagCommand.error
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
