import NFCTags
import ReaderCore

/// What a failed exchange was doing: the same tag failure maps to different Core NFC codes
/// for a read (102) and for a write (401).
enum TagOperationKind {
    case read
    case write
    case command
}

extension NFCReaderError {
    /// Translates a tag-layer error (docs/corenfc.md, "On Linux the natural causes map as"; the
    /// chain: docs/architecture.md "Errors").
    init(_ error: TagError, during kind: TagOperationKind) {
        let text = error.description
        switch error {
        case .tagLost, .readerGone, .timeout:
            self.init(.readerTransceiveErrorTagConnectionLost, message: text)
        case .readerBusy:
            self.init(.readerSessionInvalidationErrorSystemIsBusy, message: text)
        case .readOnly:
            self.init(.ndefReaderSessionErrorTagNotWritable, message: text)
        case .messageTooLarge:
            self.init(.ndefReaderSessionErrorTagSizeTooSmall, message: text)
        case .unsupported, .notNDEFFormatted:
            self.init(.readerErrorUnsupportedFeature, message: text)
        case let .iso15693(code):
            // As on iOS: 102 with the tag's ISO 15693 error code in the user info (401 for NDEF writes).
            self.init(kind == .write ? .ndefReaderSessionErrorTagUpdateFailure : .readerTransceiveErrorTagResponseError, message: text)
            iso15693ResponseError = Int(code)
        case .status, .nak, .malformedReply, .invalidTagData, .transport, .pageRefused, .feliCaStatus, .authenticationFailed:
            self.init(kind == .write ? .ndefReaderSessionErrorTagUpdateFailure : .readerTransceiveErrorTagResponseError,
                      message: text)
        }
    }

    /// Translates a reader-level error met while connecting to or talking to a tag.
    init(_ error: ReaderError) {
        let text = error.description
        switch error {
        case .readerBusy:
            self.init(.readerSessionInvalidationErrorSystemIsBusy, message: text)
        case .tagGone, .readerGone:
            self.init(.readerTransceiveErrorTagConnectionLost, message: text)
        case .serviceUnavailable, .noReaders, .readerNotFound, .ambiguousReader:
            self.init(.readerErrorUnsupportedFeature, message: text)
        case .other:
            self.init(.readerTransceiveErrorTagResponseError, message: text)
        }
    }

    /// Any error a closure may throw (an app's tag command, `makeNDEFOperations`): the seams below
    /// throw `TagError` / `ReaderError` only (typed), so this is for what may mix them with
    /// `NFCReaderError`; anything else becomes 102 (401 for a write) with its description.
    static func from(_ error: any Error, during kind: TagOperationKind) -> NFCReaderError {
        switch error {
        case let e as NFCReaderError: return e
        case let e as TagError: return NFCReaderError(e, during: kind)
        case let e as ReaderError: return NFCReaderError(e)
        default:
            return NFCReaderError(kind == .write ? .ndefReaderSessionErrorTagUpdateFailure : .readerTransceiveErrorTagResponseError,
                                  message: String(describing: error))
        }
    }
}
