import Foundation

// The rest of Core NFC's FeliCa commands (iOS 13 completion handlers, iOS 14 result handlers,
// async forms). Linux readers never produce a FeliCa tag, so each answers
// `.readerErrorUnsupportedFeature` (1), asynchronously, as `NFCFeliCaTag.swift` explains.
extension NFCFeliCaTag {
    public typealias EncryptionId = NFCFeliCaEncryptionId

    public func requestServiceV2(nodeCodeList: [Data],
                                 completionHandler: @escaping (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, .AES, [], [], $0) }
    }

    public func requestServiceV2(nodeCodeList: [Data]) async throws -> (Int, Int, NFCFeliCaEncryptionId, [Data], [Data]) {
        throw UnsupportedTagCommand.error
    }

    public func requestResponse(completionHandler: @escaping (Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, $0) }
    }

    public func requestResponse() async throws -> Int {
        throw UnsupportedTagCommand.error
    }

    public func requestSpecificationVersion(completionHandler: @escaping (Int, Int, Data, Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, Data(), Data(), $0) }
    }

    public func requestSpecificationVersion() async throws -> (Int, Int, Data, Data) {
        throw UnsupportedTagCommand.error
    }

    public func resetMode(completionHandler: @escaping (Int, Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, $0) }
    }

    public func resetMode() async throws -> (Int, Int) {
        throw UnsupportedTagCommand.error
    }

    // MARK: iOS 14 result handlers

    public func polling(systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
                        resultHandler: @escaping (Result<NFCFeliCaPollingResponse, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func requestService(nodeCodeList: [Data], resultHandler: @escaping (Result<[Data], any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func requestServiceV2(nodeCodeList: [Data],
                                 resultHandler: @escaping (Result<NFCFeliCaRequsetServiceV2Response, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func requestResponse(resultHandler: @escaping (Result<Int, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data],
                                      resultHandler: @escaping (Result<(NFCFeliCaStatusFlag, [Data]), any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data],
                                       resultHandler: @escaping (Result<NFCFeliCaStatusFlag, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func requestSystemCode(resultHandler: @escaping (Result<[Data], any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func requestSpecificationVersion(
        resultHandler: @escaping (Result<NFCFeliCaRequestSpecificationVersionResponse, any Error>) -> Void
    ) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func resetMode(resultHandler: @escaping (Result<NFCFeliCaStatusFlag, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }

    public func sendFeliCaCommand(commandPacket: Data, resultHandler: @escaping (Result<Data, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
}
