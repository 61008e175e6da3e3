import Foundation

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

/// Core NFC's `NFCISO15693Tag`. Declared so iOS code that switches over every `NFCTag` case
/// compiles; Linux readers never produce one (no ISO 15693 polling), so the commands below only
/// exist as defaults that fail with `.readerErrorUnsupportedFeature`.
public protocol NFCISO15693Tag: __NFCTag, NFCNDEFTag {
    var identifier: Data { get }
    var icManufacturerCode: Int { get }
    var icSerialNumber: Data { get }
}

extension NFCISO15693Tag {
    @preconcurrency public func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
                                completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(Data(), $0) }
    }

    public func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws -> Data {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func writeSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
                                 completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    public func writeSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                   completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler([], $0) }
    }

    public func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func lockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
                          completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    @preconcurrency public func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
                                        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(Data(), $0) }
    }

    public func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws -> Data {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func extendedWriteSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
                                         completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }

    /// (DSFID, AFI, block size, block count, IC reference).
    @preconcurrency public func getSystemInfo(requestFlags flags: NFCISO15693RequestFlag,
                              completionHandler: @escaping @Sendable (Int, Int, Int, Int, Int, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(0, 0, 0, 0, 0, $0) }
    }

    @preconcurrency public func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
                              completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        UnsupportedTagCommand.fail { completionHandler(Data(), $0) }
    }

    public func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int,
                              customRequestParameters: Data) async throws -> Data {
        throw UnsupportedTagCommand.error
    }

    @preconcurrency public func stayQuiet(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        UnsupportedTagCommand.fail(completionHandler)
    }
}
