import Foundation
import NDEF
import ReaderCore

/// Linux addition: what a read session found on one tag, whether or not it held a message.
/// Emitted as `NFCSessionEvent.tagReport` for every tag read, and handed to
/// `NFCSessionConfiguration.tagReportHandler` before the reader's LED/buzzer confirms the tap.
///
/// A plain value: the bytes read are decoded once (by the session that read them, or by `init`),
/// and Apple's `NFCNDEFMessage` is built from that decoding only when `message` is asked for.
public struct NFCTagReport: Sendable {
    public var tag: DetectedTag
    /// Product, capacity, writability (when `NFCSessionConfiguration.collectTagDetails`).
    public var details: NDEFTagDetails?
    /// The NDEF bytes read: empty for an empty NDEF message, nil when nothing was read.
    public let ndefBytes: [UInt8]?
    /// Linux: `ndefBytes` decoded once as the pure `NDEF.NDEFMessage`, in relaxed mode (what real
    /// tags need, `NDEF.DecodingMode`): nil when nothing was read, the message is empty, or it is
    /// malformed (then `ndefDecodingError` says why).
    public let ndefMessage: NDEFMessage?
    /// Linux: why non-empty `ndefBytes` did not decode (an `NDEFError` with its byte offset); nil otherwise.
    public let ndefDecodingError: (any Error)?
    /// Why nothing (or nothing usable) was read.
    public var error: NFCReaderError?
    /// Linux: the tag answered, with bytes nfctap refuses — a reply of the wrong format, data that
    /// contradicts itself, a malformed NDEF message. Reading again gives the same, so a single read
    /// ends with it (`scan` exits 1) while a stream goes on. False for a tag that left, timed out or
    /// failed in transport: that is worth another try (docs/faults.md "Lost, malformed").
    public var refusedData = false

    /// A report of `ndefBytes`, decoded here (relaxed mode).
    public init(tag: DetectedTag, details: NDEFTagDetails? = nil, ndefBytes: [UInt8]? = nil, error: NFCReaderError? = nil) {
        let (message, failure) = Self.decode(ndefBytes)
        self.init(tag: tag, details: details, ndefBytes: ndefBytes, decoded: message, decodingError: failure, error: error)
    }

    /// A report of bytes the session already decoded.
    init(tag: DetectedTag, details: NDEFTagDetails?, ndefBytes: [UInt8]?, decoded: NDEFMessage?,
         decodingError: (any Error)?, error: NFCReaderError?) {
        self.tag = tag
        self.details = details
        self.ndefBytes = ndefBytes
        self.ndefMessage = decoded
        self.ndefDecodingError = decodingError
        self.error = error
    }

    /// The decoded message as Core NFC's class (nil when empty, not NDEF, or malformed), made on
    /// each call from `ndefMessage`.
    public var message: NFCNDEFMessage? {
        ndefMessage.map(NFCNDEFMessage.init(decoded:))
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

    /// True when nothing is to be gained by reading the tag again: it was read to the end, or it
    /// answered with data nfctap refuses.
    public var isFinal: Bool { completed || refusedData }

    /// True when the tag was read to the end (a message, an empty message, or a tag without NDEF).
    public var completed: Bool {
        guard let error else { return true }
        switch error.code {
        case .readerErrorUnsupportedFeature, .ndefReaderSessionErrorZeroLengthMessage: return true
        default: return false
        }
    }
}
