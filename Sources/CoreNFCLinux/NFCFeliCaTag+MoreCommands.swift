import Foundation

// The async and iOS 14 `resultHandler:` forms of Core NFC's FeliCa commands, each one call of the
// completion-handler form (a requirement of `NFCFeliCaTag`, so it reaches the session's tag).
extension NFCFeliCaTag {
    public typealias EncryptionId = NFCFeliCaEncryptionId

    /// Resumes with the value, or throws when the handler's error is set.
    private func awaiting<T: Sendable>(_ start: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            start { value, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: value) }
            }
        }
    }

    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot) async throws -> (Data, Data) {
        try await awaiting { done in polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) { done(($0, $1), $2) } }
    }

    public func requestService(nodeCodeList: [Data]) async throws -> [Data] {
        try await awaiting { done in requestService(nodeCodeList: nodeCodeList, completionHandler: done) }
    }

    public func requestSystemCode() async throws -> [Data] {
        try await awaiting { done in requestSystemCode(completionHandler: done) }
    }

    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (Int, Int, [Data]) {
        try await awaiting { done in readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) { done(($0, $1, $2), $3) } }
    }

    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (Int, Int) {
        try await awaiting { done in
            writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) { done(($0, $1), $2) }
        }
    }

    public func sendFeliCaCommand(commandPacket: Data) async throws -> Data {
        try await awaiting { done in sendFeliCaCommand(commandPacket: commandPacket, completionHandler: done) }
    }

    public func requestServiceV2(nodeCodeList: [Data]) async throws -> (Int, Int, NFCFeliCaEncryptionId, [Data], [Data]) {
        try await awaiting { done in requestServiceV2(nodeCodeList: nodeCodeList) { done(($0, $1, $2, $3, $4), $5) } }
    }

    public func requestResponse() async throws -> Int {
        try await awaiting { done in requestResponse(completionHandler: done) }
    }

    public func requestSpecificationVersion() async throws -> (Int, Int, Data, Data) {
        try await awaiting { done in requestSpecificationVersion { done(($0, $1, $2, $3), $4) } }
    }

    public func resetMode() async throws -> (Int, Int) {
        try await awaiting { done in resetMode { done(($0, $1), $2) } }
    }

    // MARK: iOS 14 result handlers

    @preconcurrency public func polling(systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
                        resultHandler: @escaping @Sendable (Result<NFCFeliCaPollingResponse, any Error>) -> Void) {
        polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) { pmm, data, error in
            resultHandler(error.map { .failure($0) }
                          ?? .success(NFCFeliCaPollingResponse(manufactureParameter: pmm, requestData: data.isEmpty ? nil : data)))
        }
    }

    @preconcurrency public func requestService(nodeCodeList: [Data], resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        requestService(nodeCodeList: nodeCodeList) { versions, error in resultHandler(error.map { .failure($0) } ?? .success(versions)) }
    }

    @preconcurrency public func requestServiceV2(nodeCodeList: [Data],
                                 resultHandler: @escaping @Sendable (Result<NFCFeliCaRequsetServiceV2Response, any Error>) -> Void) {
        requestServiceV2(nodeCodeList: nodeCodeList) { f1, f2, id, aes, des, error in
            resultHandler(error.map { .failure($0) } ?? .success(NFCFeliCaRequsetServiceV2Response(
                statusFlag1: f1, statusFlag2: f2, encryptionIdentifier: id,
                nodeKeyVersionListAES: aes.isEmpty ? nil : aes, nodeKeyVersionListDES: des.isEmpty ? nil : des)))
        }
    }

    @preconcurrency public func requestResponse(resultHandler: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        requestResponse { mode, error in resultHandler(error.map { .failure($0) } ?? .success(mode)) }
    }

    @preconcurrency public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data],
                                      resultHandler: @escaping @Sendable (Result<(NFCFeliCaStatusFlag, [Data]), any Error>) -> Void) {
        readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) { f1, f2, blocks, error in
            resultHandler(error.map { .failure($0) } ?? .success((NFCFeliCaStatusFlag(statusFlag1: f1, statusFlag2: f2), blocks)))
        }
    }

    @preconcurrency public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data],
                                       resultHandler: @escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void) {
        writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) { f1, f2, error in
            resultHandler(error.map { .failure($0) } ?? .success(NFCFeliCaStatusFlag(statusFlag1: f1, statusFlag2: f2)))
        }
    }

    @preconcurrency public func requestSystemCode(resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        requestSystemCode { codes, error in resultHandler(error.map { .failure($0) } ?? .success(codes)) }
    }

    @preconcurrency public func requestSpecificationVersion(
        resultHandler: @escaping @Sendable (Result<NFCFeliCaRequestSpecificationVersionResponse, any Error>) -> Void
    ) {
        requestSpecificationVersion { f1, f2, basic, option, error in
            resultHandler(error.map { .failure($0) } ?? .success(NFCFeliCaRequestSpecificationVersionResponse(
                statusFlag1: f1, statusFlag2: f2, basicVersion: basic, optionVersion: option)))
        }
    }

    @preconcurrency public func resetMode(resultHandler: @escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void) {
        resetMode { f1, f2, error in resultHandler(error.map { .failure($0) } ?? .success(NFCFeliCaStatusFlag(statusFlag1: f1, statusFlag2: f2))) }
    }

    @preconcurrency public func sendFeliCaCommand(commandPacket: Data, resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        sendFeliCaCommand(commandPacket: commandPacket) { data, error in resultHandler(error.map { .failure($0) } ?? .success(data)) }
    }
}
