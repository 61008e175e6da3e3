import Foundation

// The rest of Core NFC's FeliCa commands (iOS 13 completion handlers, iOS 14 result handlers,
// async forms). Linux readers never produce a FeliCa tag, so each answers
// `.readerErrorUnsupportedFeature` (1), asynchronously, as `NFCFeliCaTag.swift` explains.
extension NFCFeliCaTag {
    public typealias EncryptionId = NFCFeliCaEncryptionId

    @preconcurrency public func requestServiceV2(nodeCodeList: [Data],
                                 completionHandler: @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, .AES, [], [], $0) }
    }

    public func requestServiceV2(nodeCodeList: [Data]) async throws -> (Int, Int, NFCFeliCaEncryptionId, [Data], [Data]) {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func requestResponse(completionHandler: @escaping @Sendable (Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, $0) }
    }

    public func requestResponse() async throws -> Int {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func requestSpecificationVersion(completionHandler: @escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, Data(), Data(), $0) }
    }

    public func requestSpecificationVersion() async throws -> (Int, Int, Data, Data) {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func resetMode(completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, $0) }
    }

    public func resetMode() async throws -> (Int, Int) {
        throw UnsupportedTagCommand.error
    }

    // MARK: iOS 14 result handlers

    @preconcurrency public func polling(systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
                        resultHandler: @escaping @Sendable (Result<NFCFeliCaPollingResponse, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func requestService(nodeCodeList: [Data], resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func requestServiceV2(nodeCodeList: [Data],
                                 resultHandler: @escaping @Sendable (Result<NFCFeliCaRequsetServiceV2Response, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func requestResponse(resultHandler: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data],
                                      resultHandler: @escaping @Sendable (Result<(NFCFeliCaStatusFlag, [Data]), any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data],
                                       resultHandler: @escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func requestSystemCode(resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func requestSpecificationVersion(
        resultHandler: @escaping @Sendable (Result<NFCFeliCaRequestSpecificationVersionResponse, any Error>) -> Void
    ) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func resetMode(resultHandler: @escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    @preconcurrency public func sendFeliCaCommand(commandPacket: Data, resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
}
