import Foundation

// The rest of Core NFC's ISO 15693 commands (iOS 13 completion handlers, iOS 14 result handlers,
// iOS 15+ cryptographic commands, async forms). Linux readers never produce an ISO 15693 tag, so
// each answers `.readerErrorUnsupportedFeature` (1), asynchronously, as `NFCISO15693Tag.swift` explains.
extension NFCISO15693Tag {
    public typealias RequestFlag = NFCISO15693RequestFlag

    // MARK: Multi-block, AFI, DSFID, state commands (completion handlers)

    @preconcurrency public func writeMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
                                    completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func getMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                               completionHandler: @escaping @Sendable ([NSNumber], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    @preconcurrency public func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func lockAFI(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    /// Apple's original (misspelt) name of Lock DSFID; `lockDSFID` is the iOS 14 spelling.
    @preconcurrency public func lockDFSID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func lockDSFID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func resetToReady(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func select(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func extendedLockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
                                  completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func extendedReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                           completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    @preconcurrency public func extendedWriteMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
                                            completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func extendedGetMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                                       completionHandler: @escaping @Sendable ([NSNumber], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    @preconcurrency public func challenge(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
                          completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    // MARK: async forms

    public func lockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws { throw UnsupportedTagCommand.error }
    public func writeMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        throw UnsupportedTagCommand.error
    }
    public func getMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [NSNumber] {
        throw UnsupportedTagCommand.error
    }
    public func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8) async throws { throw UnsupportedTagCommand.error }
    public func lockAFI(requestFlags flags: NFCISO15693RequestFlag) async throws { throw UnsupportedTagCommand.error }
    public func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8) async throws { throw UnsupportedTagCommand.error }
    public func lockDSFID(requestFlags flags: NFCISO15693RequestFlag) async throws { throw UnsupportedTagCommand.error }
    public func resetToReady(requestFlags flags: NFCISO15693RequestFlag) async throws { throw UnsupportedTagCommand.error }
    public func select(requestFlags flags: NFCISO15693RequestFlag) async throws { throw UnsupportedTagCommand.error }
    public func stayQuiet() async throws { throw UnsupportedTagCommand.error }
    public func extendedWriteSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data) async throws {
        throw UnsupportedTagCommand.error
    }
    public func extendedLockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws {
        throw UnsupportedTagCommand.error
    }
    public func extendedReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        throw UnsupportedTagCommand.error
    }
    public func extendedWriteMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        throw UnsupportedTagCommand.error
    }
    /// (DSFID, AFI, block size, block count, IC reference).
    public func getSystemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> (Int, Int, Int, Int, Int) {
        throw UnsupportedTagCommand.error
    }
    public func systemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> NFCISO15693SystemInfo {
        throw UnsupportedTagCommand.error
    }
    public func fastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        throw UnsupportedTagCommand.error
    }
    public func extendedFastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        throw UnsupportedTagCommand.error
    }
    public func authenticate(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int,
                             message: Data) async throws -> (NFCISO15693ResponseFlag, Data) {
        throw UnsupportedTagCommand.error
    }
    public func keyUpdate(requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int,
                          message: Data) async throws -> (NFCISO15693ResponseFlag, Data) {
        throw UnsupportedTagCommand.error
    }
    public func challenge(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data) async throws {
        throw UnsupportedTagCommand.error
    }
    public func readBuffer(requestFlags flags: NFCISO15693RequestFlag) async throws -> (NFCISO15693ResponseFlag, Data) {
        throw UnsupportedTagCommand.error
    }
    public func sendRequest(requestFlags flags: Int, commandCode: Int, data: Data?) async throws -> (NFCISO15693ResponseFlag, Data?) {
        throw UnsupportedTagCommand.error
    }

    // MARK: iOS 14 result handlers

    @preconcurrency public func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
                                resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                   resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
                                        resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func getSystemInfo(requestFlags flags: NFCISO15693RequestFlag,
                              resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
                              resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func fastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                       resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func extendedFastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                               resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func authenticate(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
                             resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func keyUpdate(requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data,
                          resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func readBuffer(requestFlags flags: NFCISO15693RequestFlag,
                           resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
    @preconcurrency public func sendRequest(requestFlags flags: Int, commandCode: Int, data: Data?,
                            resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void) {
        UnsupportedTagCommand.failResult(resultHandler)
    }
}
