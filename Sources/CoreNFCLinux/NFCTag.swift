import Foundation

/// Core NFC's `NFCTag`: what an `NFCTagReaderSession` detects. Linux readers produce `.iso7816`
/// (ISO-DEP cards, Type 4) and `.miFare` (Type 2, family `.ultralight`); the other cases exist so
/// code written for iOS compiles unchanged.
public enum NFCTag {
    case feliCa(any NFCFeliCaTag)
    case iso7816(any NFCISO7816Tag)
    case iso15693(any NFCISO15693Tag)
    case miFare(any NFCMiFareTag)

    public var isAvailable: Bool { ndefTag.isAvailable }

    var ndefTag: any NFCNDEFTag {
        switch self {
        case let .feliCa(tag): return tag
        case let .iso7816(tag): return tag
        case let .iso15693(tag): return tag
        case let .miFare(tag): return tag
        }
    }
}

/// Core NFC's `NFCTagType` (`__NFCTagType` in Apple's Swift overlay), raw values included.
public enum __NFCTagType: UInt, Sendable {
    case feliCa = 1
    case iso7816Compatible = 2
    case iso15693 = 3
    case miFare = 4
}

/// Core NFC's `NFCTag` protocol, which Apple's Swift overlay names `__NFCTag` (the name `NFCTag`
/// is the enum): what every tag family protocol shares.
public protocol __NFCTag: NSObjectProtocol {
    var type: __NFCTagType { get }
    /// The session that detected the tag, held weakly: nil once that session is gone.
    var session: (any NFCReaderSessionProtocol)? { get }
    var isAvailable: Bool { get }
}


extension __NFCTag {
    /// Core NFC's casts between tag families: nil when the tag is not of that family.
    public func asNFCISO7816Tag() -> (any NFCISO7816Tag)? { self as? any NFCISO7816Tag }
    public func asNFCMiFareTag() -> (any NFCMiFareTag)? { self as? any NFCMiFareTag }
    public func asNFCFeliCaTag() -> (any NFCFeliCaTag)? { self as? any NFCFeliCaTag }
    public func asNFCISO15693Tag() -> (any NFCISO15693Tag)? { self as? any NFCISO15693Tag }
}
