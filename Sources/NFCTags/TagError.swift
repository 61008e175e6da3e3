import NDEF

/// Every failure that tag logic can report. Backends translate their native codes
/// (SCARD_*, NFC_E*) into these at their boundary; nothing above them sees raw C codes
/// except as carried values in `.transport`.
public enum TagError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The tag left the field (or stopped answering) during an exchange. Core NFC: 100.
    case tagLost
    /// The reader itself went away (unplugged, pcscd gone). Core NFC: 202.
    case readerGone
    /// The reader is held by another process. Core NFC: 203.
    case readerBusy
    /// No answer within the exchange timeout.
    case timeout
    /// An ISO 7816 status word other than 90 00.
    case status(sw1: UInt8, sw2: UInt8)
    /// A Type 2 NAK (4-bit answer other than ACK 0A).
    case nak(UInt8)
    /// The reply was short, long or garbled for the command sent.
    case malformedReply(String)
    /// The tag carries no NDEF capability container / application.
    case notNDEFFormatted(String)
    /// The tag's CC or TLV structure breaks the NFC Forum spec.
    case invalidTagData(String)
    /// The tag is read-only (CC write access, lock bits).
    case readOnly
    /// The message does not fit.
    case messageTooLarge(size: Int, capacity: Int)
    /// The reader or tag cannot do what was asked.
    case unsupported(String)
    /// A transport error that fits nowhere else; `code` is the backend's raw value.
    case transport(code: Int, message: String)
    /// The reader refused to read one Type 2 page (`63 00`, `6A 82`, `6B 00`: beyond the chip's
    /// memory or an unreadable page; docs/tags-and-readers.md §3), even after reconnecting.
    case pageRefused(page: Int, sw1: UInt8, sw2: UInt8)
    /// An ISO 15693 tag answered with its error flag set; `code` is the ISO/IEC 15693-3 error code
    /// (`10` block not available, `12` block locked, …; docs/tags-and-readers.md §7.3).
    case iso15693(code: UInt8)
    /// A FeliCa answer with status flag 1 other than `00` (docs/tags-and-readers.md §9.2).
    case feliCaStatus(flag1: UInt8, flag2: UInt8)
    /// No key nfctap knows (or was given) opens this MIFARE Classic sector.
    case authenticationFailed(sector: Int)

    public var description: String {
        switch self {
        case .tagLost: return "the tag left the field"
        case .readerGone: return "the reader was disconnected"
        case .readerBusy: return "the reader is in use by another process"
        case .timeout: return "the tag did not answer in time"
        case let .status(sw1, sw2): return "tag answered \(statusWordText(sw1, sw2))"
        case let .nak(v): return "tag answered NAK \(String(v, radix: 16, uppercase: true))h"
        case let .malformedReply(why): return "malformed reply: \(why)"
        case let .notNDEFFormatted(why): return "tag is not NDEF formatted: \(why)"
        case let .invalidTagData(why): return "invalid tag data: \(why)"
        case .readOnly: return "the tag is read-only"
        case let .messageTooLarge(size, capacity): return "message of \(size) bytes does not fit the tag's \(capacity) bytes"
        case let .unsupported(what): return "unsupported: \(what)"
        case let .transport(code, message): return "\(message) (code \(code))"
        case let .pageRefused(page, sw1, sw2):
            return "the reader refused to read page \(page) (\(statusWordText(sw1, sw2)))"
        case let .iso15693(code): return "tag answered ISO 15693 error \(iso15693ErrorText(code))"
        case let .feliCaStatus(flag1, flag2): return "the FeliCa card answered \(FeliCaStatusFlags(flag1, flag2))"
        case let .authenticationFailed(sector): return "no known key opens sector \(sector) of the MIFARE Classic card"
        }
    }
}

/// Names the common ISO 7816-4 status words (docs/tags-and-readers.md §2).
public func statusWordText(_ sw1: UInt8, _ sw2: UInt8) -> String {
    let sw = [sw1, sw2].hexString(separator: " ")
    let meaning: String?
    switch (sw1, sw2) {
    case (0x90, 0x00): meaning = "success"
    case (0x6A, 0x82): meaning = "file or application not found"
    case (0x6A, 0x86): meaning = "incorrect P1/P2"
    case (0x69, 0x82): meaning = "security status not satisfied"
    case (0x67, 0x00): meaning = "wrong length"
    case (0x6A, 0x84): meaning = "not enough memory"
    case (0x6B, 0x00): meaning = "offset out of range"
    case (0x6D, 0x00): meaning = "instruction not supported"
    case (0x6E, 0x00): meaning = "class not supported"
    case (0x63, 0x00): meaning = "operation failed"
    case (0x69, 0x86): meaning = "command not allowed"
    default: meaning = nil
    }
    return meaning.map { "\(sw) (\($0))" } ?? sw
}

