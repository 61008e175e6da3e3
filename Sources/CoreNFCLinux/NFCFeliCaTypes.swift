import Foundation

/// Core NFC's `NFCFeliCaEncryptionId`: the algorithm a Request Service V2 answer names, raw values
/// included (FeliCa card specification: 0x4F AES, 0x41 AES and DES).
public enum NFCFeliCaEncryptionId: Int, Sendable {
    case AES = 0x4F
    case AES_DES = 0x41

    public static var aes: NFCFeliCaEncryptionId { .AES }
    public static var aes_des: NFCFeliCaEncryptionId { .AES_DES }
}

/// Core NFC's answer of the iOS 14 `polling(…resultHandler:)`.
public struct NFCFeliCaPollingResponse: Sendable {
    public var manufactureParameter: Data
    public var requestData: Data?

    public init(manufactureParameter: Data, requestData: Data?) {
        self.manufactureParameter = manufactureParameter
        self.requestData = requestData
    }
}

/// Core NFC's status flags of a FeliCa answer (iOS 14 `resultHandler:` forms).
public struct NFCFeliCaStatusFlag: Sendable {
    public var statusFlag1: Int
    public var statusFlag2: Int

    public init(statusFlag1: Int, statusFlag2: Int) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
    }
}

/// Core NFC's answer of `requestServiceV2(…resultHandler:)`; the misspelt name is Apple's.
public struct NFCFeliCaRequsetServiceV2Response: Sendable {
    public var statusFlag1: Int
    public var statusFlag2: Int
    public var encryptionIdentifier: NFCFeliCaEncryptionId
    public var nodeKeyVersionListAES: [Data]?
    public var nodeKeyVersionListDES: [Data]?

    public init(statusFlag1: Int, statusFlag2: Int, encryptionIdentifier: NFCFeliCaEncryptionId,
                nodeKeyVersionListAES: [Data]?, nodeKeyVersionListDES: [Data]?) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
        self.encryptionIdentifier = encryptionIdentifier
        self.nodeKeyVersionListAES = nodeKeyVersionListAES
        self.nodeKeyVersionListDES = nodeKeyVersionListDES
    }
}

/// Core NFC's answer of `requestSpecificationVersion(resultHandler:)`.
public struct NFCFeliCaRequestSpecificationVersionResponse: Sendable {
    public var statusFlag1: Int
    public var statusFlag2: Int
    public var basicVersion: Data?
    public var optionVersion: Data?

    public init(statusFlag1: Int, statusFlag2: Int, basicVersion: Data?, optionVersion: Data?) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
        self.basicVersion = basicVersion
        self.optionVersion = optionVersion
    }
}

// The Objective-C headers declare these typedefs inside the tag protocols, which makes them global
// names in Swift; plugin code uses them unqualified (`PollingRequestCode(rawValue:)`).
public typealias PollingRequestCode = NFCFeliCaPollingRequestCode
public typealias PollingTimeSlot = NFCFeliCaPollingTimeSlot
public typealias EncryptionId = NFCFeliCaEncryptionId
public typealias RequestFlag = NFCISO15693RequestFlag
