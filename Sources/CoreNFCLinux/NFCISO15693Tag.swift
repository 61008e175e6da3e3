import Foundation
import NFCTags

/// Core NFC's `NFCISO15693RequestFlag` (ISO 15693-3 request flags), raw values included.
public struct NFCISO15693RequestFlag: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let dualSubCarriers = NFCISO15693RequestFlag(rawValue: 1 << 0)
    public static let highDataRate = NFCISO15693RequestFlag(rawValue: 1 << 1)
    public static let protocolExtension = NFCISO15693RequestFlag(rawValue: 1 << 3)
    public static let select = NFCISO15693RequestFlag(rawValue: 1 << 4)
    public static let address = NFCISO15693RequestFlag(rawValue: 1 << 5)
    public static let option = NFCISO15693RequestFlag(rawValue: 1 << 6)
    public static let commandSpecificBit8 = NFCISO15693RequestFlag(rawValue: 1 << 7)
}

/// Core NFC's `NFCISO15693Tag`: an ISO 15693 (NFC Forum Type 5) tag that `NFCTagReaderSession`
/// (polling `.iso15693`) hands out on readers that reach such tags (docs/tags-and-readers.md §7.10).
/// Every command runs on the session's reader lane and answers asynchronously; a tag's error answer
/// is error 102 with the ISO 15693 code under `NFCISO15693TagResponseErrorKey`. Objects of other
/// types conforming to the protocol (test doubles) answer `.readerErrorUnsupportedFeature`.
public protocol NFCISO15693Tag: __NFCTag, NFCNDEFTag {
    var identifier: Data { get }
    var icManufacturerCode: Int { get }
    var icSerialNumber: Data { get }
}

// MARK: - The one path every command takes

extension NFCISO15693Tag {
    /// Sends `code` with `parameters` (Core NFC adds the address flag and UID unless `.select`).
    func iso15693<T: Sendable>(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ parameters: [UInt8] = [], raw: Bool = false,
                     keepsFlags: Bool = false, silenceIsSuccess: Bool = false,
                     parse: @escaping @Sendable ([UInt8]) throws -> T,
                     _ completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        guard let tag = self as? ISO15693SessionTag else { return UnsupportedTagCommand.failResult(completion) }
        tag.send(flags, code: code, parameters: parameters, raw: raw, keepsFlags: keepsFlags, silenceIsSuccess: silenceIsSuccess,
                 parse: parse, completion: completion)
    }

    func iso15693Void(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ parameters: [UInt8] = [],
                      _ completion: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693(flags, code, parameters, parse: { _ in () }) { completion($0.failureValue) }
    }

    func iso15693Async<T: Sendable>(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ parameters: [UInt8] = [], raw: Bool = false,
                                    keepsFlags: Bool = false, silenceIsSuccess: Bool = false,
                                    parse: @escaping @Sendable ([UInt8]) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            iso15693(flags, code, parameters, raw: raw, keepsFlags: keepsFlags, silenceIsSuccess: silenceIsSuccess, parse: parse) {
                continuation.resume(with: $0)
            }
        }
    }

}

/// Parameter encoding and answer parsing shared by the commands (no `Self` in sendable closures).
enum ISO15693Calls {
    /// `blockRange` as (first, count − 1) parameters: 1 byte each, or 2 little-endian bytes each
    /// for the extended commands. An empty or out-of-range range is error 3, as on iOS.
    static func rangeParameters(_ range: NSRange, extended: Bool) throws -> (first: Int, count: Int, bytes: [UInt8]) {
        let limit = extended ? 0xFFFF : 0xFF
        guard range.location >= 0, range.length >= 1, range.location + range.length - 1 <= limit, range.length - 1 <= limit else {
            throw NFCReaderError(.readerErrorInvalidParameter, message: "block range \(range.location)+\(range.length) is out of bounds")
        }
        let (first, last) = (range.location, range.length - 1)
        let bytes: [UInt8] = extended ? [UInt8(first & 0xFF), UInt8(first >> 8), UInt8(last & 0xFF), UInt8(last >> 8)]
            : [UInt8(first), UInt8(last)]
        return (first, range.length, bytes)
    }

    static func blockNumber(_ block: Int, extended: Bool) throws -> [UInt8] {
        guard block >= 0, block <= (extended ? 0xFFFF : 0xFF) else {
            throw NFCReaderError(.readerErrorInvalidParameter, message: "block \(block) is out of bounds")
        }
        return extended ? [UInt8(block & 0xFF), UInt8(block >> 8)] : [UInt8(block)]
    }

    /// Splits a multi-block answer into `count` equal blocks.
    static func split(_ data: [UInt8], count: Int) throws -> [Data] {
        guard count > 0, !data.isEmpty, data.count % count == 0 else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "\(data.count) bytes do not split into \(count) blocks")
        }
        let size = data.count / count
        return (0 ..< count).map { Data(data[$0 * size ..< ($0 + 1) * size]) }
    }

    static func systemInfo(_ data: [UInt8]) throws -> NFCISO15693SystemInfo {
        let info = try ISO15693SystemInfo(responseData: data)
        return NFCISO15693SystemInfo(uniqueIdentifier: Data(info.uid), dataStorageFormatIdentifier: info.dsfid.map(Int.init) ?? -1,
                                     applicationFamilyIdentifier: info.afi.map(Int.init) ?? -1, blockSize: info.blockSize ?? -1,
                                     totalBlocks: info.blockCount ?? -1, icReference: info.icReference.map(Int.init) ?? -1)
    }
}

// MARK: - Commands (iOS 13 completion handlers and their async forms)

extension NFCISO15693Tag {
    @preconcurrency public func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
                                completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        iso15693(flags, 0x20, [blockNumber], parse: { Data($0) }) { completionHandler((try? $0.get()) ?? Data(), $0.failureValue) }
    }

    public func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws -> Data {
        try await iso15693Async(flags, 0x20, [blockNumber]) { Data($0) }
    }

    @preconcurrency public func writeSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
                                 completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x21, [blockNumber] + dataBlock, completionHandler)
    }

    public func writeSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws {
        try await iso15693Async(flags, 0x21, [blockNumber] + dataBlock) { _ in () }
    }

    @preconcurrency public func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                   completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        readMultipleBlocks(requestFlags: flags, blockRange: blockRange) { (result: Result<[Data], any Error>) in
            completionHandler((try? result.get()) ?? [], result.failureValue)
        }
    }

    public func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        let range = try ISO15693Calls.rangeParameters(blockRange, extended: false)
        return try await iso15693Async(flags, 0x23, range.bytes) { try ISO15693Calls.split($0, count: range.count) }
    }

    @preconcurrency public func lockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
                          completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693Void(flags, 0x22, [blockNumber], completionHandler)
    }

    @preconcurrency public func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
                                        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        extendedReadSingleBlock(requestFlags: flags, blockNumber: blockNumber) { (result: Result<Data, any Error>) in
            completionHandler((try? result.get()) ?? Data(), result.failureValue)
        }
    }

    public func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws -> Data {
        try await iso15693Async(flags, 0x30, try ISO15693Calls.blockNumber(blockNumber, extended: true)) { Data($0) }
    }

    @preconcurrency public func extendedWriteSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
                                         completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        do {
            iso15693Void(flags, 0x31, try ISO15693Calls.blockNumber(blockNumber, extended: true) + dataBlock, completionHandler)
        } catch {
            DispatchQueue.global().async { completionHandler(error) }
        }
    }

    /// (DSFID, AFI, block size, block count, IC reference); −1 for what the tag leaves out.
    @preconcurrency public func getSystemInfo(requestFlags flags: NFCISO15693RequestFlag,
                              completionHandler: @escaping @Sendable (Int, Int, Int, Int, Int, (any Error)?) -> Void) {
        iso15693(flags, 0x2B, parse: { try ISO15693Calls.systemInfo($0) }) { result in
            guard let info = try? result.get() else { return completionHandler(-1, -1, -1, -1, -1, result.failureValue) }
            completionHandler(info.dataStorageFormatIdentifier, info.applicationFamilyIdentifier, info.blockSize,
                              info.totalBlocks, info.icReference, nil)
        }
    }

    /// A custom command (`A0`–`DF`): Core NFC puts the IC manufacturer code after the command code.
    @preconcurrency public func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
                              completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        customCommand(requestFlags: flags, customCommandCode: customCommandCode, customRequestParameters: customRequestParameters) {
            (result: Result<Data, any Error>) in completionHandler((try? result.get()) ?? Data(), result.failureValue)
        }
    }

    public func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int,
                              customRequestParameters: Data) async throws -> Data {
        guard (0xA0 ... 0xDF).contains(customCommandCode) else {
            throw NFCReaderError(.readerErrorInvalidParameter, message: "custom command codes run from A0 to DF")
        }
        return try await iso15693Async(flags, UInt8(customCommandCode), [UInt8(truncatingIfNeeded: icManufacturerCode)] + customRequestParameters) { Data($0) }
    }

    /// Stay Quiet has no answer: the silence that follows is success.
    @preconcurrency public func stayQuiet(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        iso15693(.highDataRate, 0x02, parse: { _ in () }) { result in
            switch result.failureValue {
            case let error as NFCReaderError where error.code == .readerTransceiveErrorTagConnectionLost: completionHandler(nil)
            default: completionHandler(result.failureValue)
            }
        }
    }
}
