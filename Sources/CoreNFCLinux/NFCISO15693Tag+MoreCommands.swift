import Foundation

// The rest of Core NFC's ISO 15693 commands (iOS 13 completion handlers, iOS 14 result handlers,
// async forms), all through `iso15693(…)` in `NFCISO15693Tag.swift` (docs/tags-and-readers.md §7.2).
// The fast reads and the cryptographic commands are in `NFCISO15693Tag+SecurityCommands.swift`.
extension NFCISO15693Tag {
    public typealias RequestFlag = NFCISO15693RequestFlag

    // MARK: Multi-block, AFI, DSFID, state commands (completion handlers)

    @preconcurrency public func writeMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
                                    completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        multiBlockWrite(flags, 0x24, blockRange, dataBlocks, extended: false, completionHandler)
    }

    @preconcurrency public func getMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                               completionHandler: @escaping @Sendable ([NSNumber], (any Error)?) -> Void) {
        securityStatus(flags, 0x2C, blockRange, extended: false, completionHandler)
    }

    @preconcurrency public func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x27, [afi], completionHandler)
    }

    @preconcurrency public func lockAFI(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x28, [], completionHandler)
    }

    @preconcurrency public func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x29, [dsfid], completionHandler)
    }

    /// Apple's original (misspelt) name of Lock DSFID; `lockDSFID` is the iOS 14 spelling.
    @preconcurrency public func lockDFSID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x2A, [], completionHandler)
    }

    @preconcurrency public func lockDSFID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x2A, [], completionHandler)
    }

    @preconcurrency public func resetToReady(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x26, [], completionHandler)
    }

    @preconcurrency public func select(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x25, [], completionHandler)
    }

    @preconcurrency public func extendedLockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
                                  completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        do {
            iso15693Void(flags, 0x32, try ISO15693Calls.blockNumber(blockNumber, extended: true), completionHandler)
        } catch {
            DispatchQueue.global().async { completionHandler(error) }
        }
    }

    @preconcurrency public func extendedReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                           completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        multiBlockRead(flags, 0x33, blockRange, extended: true) { completionHandler((try? $0.get()) ?? [], $0.failureValue) }
    }

    @preconcurrency public func extendedWriteMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
                                            completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        multiBlockWrite(flags, 0x34, blockRange, dataBlocks, extended: true, completionHandler)
    }

    @preconcurrency public func extendedGetMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                                       completionHandler: @escaping @Sendable ([NSNumber], (any Error)?) -> Void) {
        securityStatus(flags, 0x3C, blockRange, extended: true, completionHandler)
    }

    // MARK: Shapes shared by the forms above

    func multiBlockRead(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ range: NSRange, extended: Bool,
                        _ completion: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        guard self is ISO15693SessionTag else { return UnsupportedTagCommand.failResult(completion) }
        do {
            let parameters = try ISO15693Calls.rangeParameters(range, extended: extended)
            iso15693(flags, code, parameters.bytes, parse: { try ISO15693Calls.split($0, count: parameters.count) }, completion)
        } catch {
            DispatchQueue.global().async { completion(.failure(error)) }
        }
    }

    func multiBlockWrite(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ range: NSRange, _ blocks: [Data], extended: Bool,
                         _ completion: @escaping @Sendable ((any Error)?) -> Void) {
        guard self is ISO15693SessionTag else { return UnsupportedTagCommand.fail(completion) }
        do {
            let parameters = try ISO15693Calls.rangeParameters(range, extended: extended)
            guard blocks.count == parameters.count, let size = blocks.first?.count, size > 0, blocks.allSatisfy({ $0.count == size }) else {
                throw NFCReaderError(.readerErrorInvalidParameterLength, message: "\(blocks.count) blocks for a range of \(parameters.count)")
            }
            iso15693Void(flags, code, parameters.bytes + blocks.flatMap { [UInt8]($0) }, completion)
        } catch {
            DispatchQueue.global().async { completion(error) }
        }
    }

    func securityStatus(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ range: NSRange, extended: Bool,
                        _ completion: @escaping @Sendable ([NSNumber], (any Error)?) -> Void) {
        guard self is ISO15693SessionTag else { return UnsupportedTagCommand.fail { completion([], $0) } }
        do {
            let parameters = try ISO15693Calls.rangeParameters(range, extended: extended)
            iso15693(flags, code, parameters.bytes, parse: { bytes -> [UInt8] in
                guard bytes.count == parameters.count else {
                    throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "\(bytes.count) status bytes for \(parameters.count) blocks")
                }
                return bytes
            }) { result in
                completion(((try? result.get()) ?? []).map { NSNumber(value: $0) }, result.failureValue)
            }
        } catch {
            DispatchQueue.global().async { completion([], error) }
        }
    }

    // MARK: async forms

    public func lockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws {
        try await iso15693Async(flags, 0x22, [blockNumber]) { _ in () }
    }
    public func writeMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        try await ISO15693Calls.bridge { writeMultipleBlocks(requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks, completionHandler: $0) }
    }
    public func getMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [NSNumber] {
        try await withCheckedThrowingContinuation { continuation in
            getMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange) { statuses, error in
                let values = statuses.map(\.uint8Value)
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: values.map { NSNumber(value: $0) }) }
            }
        }
    }
    public func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8) async throws {
        try await iso15693Async(flags, 0x27, [afi]) { _ in () }
    }
    public func lockAFI(requestFlags flags: NFCISO15693RequestFlag) async throws { try await iso15693Async(flags, 0x28) { _ in () } }
    public func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8) async throws {
        try await iso15693Async(flags, 0x29, [dsfid]) { _ in () }
    }
    public func lockDSFID(requestFlags flags: NFCISO15693RequestFlag) async throws { try await iso15693Async(flags, 0x2A) { _ in () } }
    public func resetToReady(requestFlags flags: NFCISO15693RequestFlag) async throws { try await iso15693Async(flags, 0x26) { _ in () } }
    public func select(requestFlags flags: NFCISO15693RequestFlag) async throws { try await iso15693Async(flags, 0x25) { _ in () } }
    public func stayQuiet() async throws {
        try await ISO15693Calls.bridge { stayQuiet(completionHandler: $0) }
    }
    public func extendedWriteSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data) async throws {
        try await iso15693Async(flags, 0x31, try ISO15693Calls.blockNumber(blockNumber, extended: true) + dataBlock) { _ in () }
    }
    public func extendedLockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws {
        try await iso15693Async(flags, 0x32, try ISO15693Calls.blockNumber(blockNumber, extended: true)) { _ in () }
    }
    public func extendedReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        let range = try ISO15693Calls.rangeParameters(blockRange, extended: true)
        return try await iso15693Async(flags, 0x33, range.bytes) { try ISO15693Calls.split($0, count: range.count) }
    }
    public func extendedWriteMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        try await ISO15693Calls.bridge { extendedWriteMultipleBlocks(requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks, completionHandler: $0) }
    }
    /// (DSFID, AFI, block size, block count, IC reference).
    public func getSystemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> (Int, Int, Int, Int, Int) {
        let info = try await systemInfo(requestFlags: flags)
        return (info.dataStorageFormatIdentifier, info.applicationFamilyIdentifier, info.blockSize, info.totalBlocks, info.icReference)
    }
    public func systemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> NFCISO15693SystemInfo {
        try await iso15693Async(flags, 0x2B) { try ISO15693Calls.systemInfo($0) }
    }
    /// Any request frame (`flags commandCode data`, no UID added): the response flags and data,
    /// without turning an error flag into an error (iOS 14).
    public func sendRequest(requestFlags flags: Int, commandCode: Int, data: Data?) async throws -> (NFCISO15693ResponseFlag, Data?) {
        let reply = try await iso15693Async(NFCISO15693RequestFlag(rawValue: UInt8(truncatingIfNeeded: flags)),
                                            UInt8(truncatingIfNeeded: commandCode), [UInt8](data ?? Data()), raw: true) { $0 }
        guard let first = reply.first else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "empty ISO 15693 response")
        }
        return (NFCISO15693ResponseFlag(rawValue: first), reply.count > 1 ? Data(reply.dropFirst()) : nil)
    }

    // MARK: iOS 14 result handlers

    @preconcurrency public func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
                                resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        iso15693(flags, 0x20, [blockNumber], parse: { Data($0) }, resultHandler)
    }
    @preconcurrency public func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                   resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        multiBlockRead(flags, 0x23, blockRange, extended: false, resultHandler)
    }
    @preconcurrency public func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
                                        resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        do {
            iso15693(flags, 0x30, try ISO15693Calls.blockNumber(blockNumber, extended: true), parse: { Data($0) }, resultHandler)
        } catch {
            DispatchQueue.global().async { resultHandler(.failure(error)) }
        }
    }
    @preconcurrency public func getSystemInfo(requestFlags flags: NFCISO15693RequestFlag,
                              resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void) {
        iso15693(flags, 0x2B, parse: { try ISO15693Calls.systemInfo($0) }, resultHandler)
    }
    @preconcurrency public func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
                              resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        guard (0xA0 ... 0xDF).contains(customCommandCode) else {
            let error = NFCReaderError(.readerErrorInvalidParameter, message: "custom command codes run from A0 to DF")
            return DispatchQueue.global().async { resultHandler(.failure(error)) }
        }
        iso15693(flags, UInt8(customCommandCode), [UInt8(truncatingIfNeeded: icManufacturerCode)] + customRequestParameters,
                 parse: { Data($0) }, resultHandler)
    }
    @preconcurrency public func sendRequest(requestFlags flags: Int, commandCode: Int, data: Data?,
                            resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void) {
        iso15693(NFCISO15693RequestFlag(rawValue: UInt8(truncatingIfNeeded: flags)), UInt8(truncatingIfNeeded: commandCode),
                 [UInt8](data ?? Data()), raw: true, parse: { reply -> (NFCISO15693ResponseFlag, Data?) in
                     guard let first = reply.first else {
                         throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "empty ISO 15693 response")
                     }
                     return (NFCISO15693ResponseFlag(rawValue: first), reply.count > 1 ? Data(reply.dropFirst()) : nil)
                 }, resultHandler)
    }
}

extension ISO15693Calls {
    /// A completion-handler call as `async throws`.
    static func bridge(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            start { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
