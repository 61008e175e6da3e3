import Foundation
import ReaderCore

/// Linux addition: what a read session found on one tag, whether or not it held a message.
/// Emitted as `NFCSessionEvent.tagReport` for every tag read, and handed to
/// `NFCSessionConfiguration.tagReportHandler` before the reader's LED/buzzer confirms the tap.
public struct NFCTagReport: @unchecked Sendable {
    public var tag: DetectedTag
    /// Product, capacity, writability (when `NFCSessionConfiguration.collectTagDetails`).
    public var details: NDEFTagDetails?
    /// The NDEF bytes read: empty for an empty NDEF message, nil when nothing was read.
    public var ndefBytes: [UInt8]?
    /// The decoded message (nil when empty, not NDEF, or malformed).
    public var message: NFCNDEFMessage?
    /// Why nothing (or nothing usable) was read.
    public var error: NFCReaderError?

    public init(tag: DetectedTag, details: NDEFTagDetails? = nil, ndefBytes: [UInt8]? = nil,
                message: NFCNDEFMessage? = nil, error: NFCReaderError? = nil) {
        self.tag = tag
        self.details = details
        self.ndefBytes = ndefBytes
        self.message = message
        self.error = error
    }

    /// True when the tag was read to the end (a message, an empty message, or a tag without NDEF).
    public var completed: Bool {
        guard let error else { return true }
        switch error.code {
        case .readerErrorUnsupportedFeature, .ndefReaderSessionErrorZeroLengthMessage: return true
        default: return false
        }
    }
}
