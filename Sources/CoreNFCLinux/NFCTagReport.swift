import Foundation
import NDEF
import ReaderCore

/// Linux addition: what a read session found on one tag, whether or not it held a message.
/// Emitted as `NFCSessionEvent.tagReport` for every tag read, and handed to
/// `NFCSessionConfiguration.tagReportHandler` before the reader's LED/buzzer confirms the tap.
// @unchecked: `message` is an `NFCNDEFMessage`, a mutable open class (as on iOS), made for this report and not kept by the session.
public struct NFCTagReport: @unchecked Sendable {
    public var tag: DetectedTag
    /// Product, capacity, writability (when `NFCSessionConfiguration.collectTagDetails`).
    public var details: NDEFTagDetails?
    /// The NDEF bytes read: empty for an empty NDEF message, nil when nothing was read.
    /// Setting them decodes `ndefMessage` again.
    public var ndefBytes: [UInt8]? {
        didSet { (ndefMessage, ndefDecodingError) = Self.decode(ndefBytes) }
    }
    /// The decoded message (nil when empty, not NDEF, or malformed).
    public var message: NFCNDEFMessage?
    /// Linux: `ndefBytes` decoded once as the pure `NDEF.NDEFMessage`, in relaxed mode (what real
    /// tags need, `NDEF.DecodingMode`): nil when nothing was read, the message is empty, or it is
    /// malformed (then `ndefDecodingError` says why).
    public private(set) var ndefMessage: NDEFMessage?
    /// Linux: why non-empty `ndefBytes` did not decode (an `NDEFError` with its byte offset); nil otherwise.
    public private(set) var ndefDecodingError: (any Error)?
    /// Why nothing (or nothing usable) was read.
    public var error: NFCReaderError?

    public init(tag: DetectedTag, details: NDEFTagDetails? = nil, ndefBytes: [UInt8]? = nil,
                message: NFCNDEFMessage? = nil, error: NFCReaderError? = nil) {
        self.tag = tag
        self.details = details
        self.ndefBytes = ndefBytes
        self.message = message
        self.error = error
        (ndefMessage, ndefDecodingError) = Self.decode(ndefBytes)
    }

    /// Relaxed decoding of the bytes read; an empty message is no message and no error.
    private static func decode(_ bytes: [UInt8]?) -> (NDEFMessage?, (any Error)?) {
        guard let bytes, !bytes.isEmpty else { return (nil, nil) }
        do {
            return (try NDEFMessage(bytes: bytes, mode: .relaxed), nil)
        } catch {
            return (nil, error)
        }
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
