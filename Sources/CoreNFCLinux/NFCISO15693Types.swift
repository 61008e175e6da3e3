import Foundation

/// Core NFC's `NFCISO15693ResponseFlag` (ISO 15693-3 response flags), raw values included.
public struct NFCISO15693ResponseFlag: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let error = NFCISO15693ResponseFlag(rawValue: 1 << 0)
    public static let responseBufferValid = NFCISO15693ResponseFlag(rawValue: 1 << 1)
    public static let finalResponse = NFCISO15693ResponseFlag(rawValue: 1 << 2)
    public static let protocolExtension = NFCISO15693ResponseFlag(rawValue: 1 << 3)
    public static let blockSecurityStatusBit5 = NFCISO15693ResponseFlag(rawValue: 1 << 4)
    public static let blockSecurityStatusBit6 = NFCISO15693ResponseFlag(rawValue: 1 << 5)
    public static let waitTimeExtension = NFCISO15693ResponseFlag(rawValue: 1 << 6)
}

/// Core NFC's answer of `getSystemInfo(requestFlags:resultHandler:)` (iOS 14); -1 marks a field
/// the tag did not report, as on iOS.
public struct NFCISO15693SystemInfo: Sendable {
    public var uniqueIdentifier: Data
    public var dataStorageFormatIdentifier: Int
    public var applicationFamilyIdentifier: Int
    public var blockSize: Int
    public var totalBlocks: Int
    public var icReference: Int

    public init(uniqueIdentifier: Data, dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int,
                blockSize: Int, totalBlocks: Int, icReference: Int) {
        self.uniqueIdentifier = uniqueIdentifier
        self.dataStorageFormatIdentifier = dataStorageFormatIdentifier
        self.applicationFamilyIdentifier = applicationFamilyIdentifier
        self.blockSize = blockSize
        self.totalBlocks = totalBlocks
        self.icReference = icReference
    }
}
