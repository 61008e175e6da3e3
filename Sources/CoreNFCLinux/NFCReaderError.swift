import Foundation

/// Core NFC's error domain (`NFCErrorDomain`).
public let NFCErrorDomain: String = "NFCError"

/// Core NFC's user-info key for an ISO 15693 tag's error code (ISO/IEC 15693-3, e.g. `0x10` block
/// not available), set on error 102 when the tag answered with its error flag
/// (docs/tags-and-readers.md §7.3).
public let NFCISO15693TagResponseErrorKey: String = "NFCISO15693TagResponseErrorKey"

/// Core NFC's user-info key for a tag answer of unexpected length. Declared for code that reads it;
/// on Linux such answers are error 102 with a message instead.
public let NFCTagResponseUnexpectedLengthErrorKey: String = "NFCTagResponseUnexpectedLengthErrorKey"

/// Core NFC's `NFCReaderError`: the error handed to `didInvalidateWithError` and to tag-operation
/// completion handlers. Raw values are Apple's (docs/corenfc.md, "Errors").
///
/// Match it as on iOS: `(error as? NFCReaderError)?.code == .readerSessionInvalidationErrorUserCanceled`,
/// or `catch NFCReaderError.readerTransceiveErrorTagConnectionLost`. On Linux `message` says what happened
/// and, where the user can fix it, how (e.g. "start pcscd").
public struct NFCReaderError: Error, Hashable, Sendable, CustomNSError, LocalizedError, CustomStringConvertible {
    /// Apple's `NFCReaderError.Code`, every case with its raw value.
    public enum Code: Int, Sendable, CaseIterable {
        case readerErrorUnsupportedFeature = 1
        case readerErrorSecurityViolation = 2
        case readerErrorInvalidParameter = 3
        case readerErrorInvalidParameterLength = 4
        case readerErrorParameterOutOfBound = 5
        case readerErrorRadioDisabled = 6
        /// iOS 26: the device or region is not eligible. Never produced on Linux.
        case readerErrorIneligible = 7
        /// iOS 26: the user did not accept NFC access. Never produced on Linux.
        case readerErrorAccessNotAccepted = 8
        case readerTransceiveErrorTagConnectionLost = 100
        case readerTransceiveErrorRetryExceeded = 101
        case readerTransceiveErrorTagResponseError = 102
        case readerTransceiveErrorSessionInvalidated = 103
        case readerTransceiveErrorTagNotConnected = 104
        case readerTransceiveErrorPacketTooLong = 105
        case readerSessionInvalidationErrorUserCanceled = 200
        case readerSessionInvalidationErrorSessionTimeout = 201
        case readerSessionInvalidationErrorSessionTerminatedUnexpectedly = 202
        case readerSessionInvalidationErrorSystemIsBusy = 203
        case readerSessionInvalidationErrorFirstNDEFTagRead = 204
        case tagCommandConfigurationErrorInvalidParameters = 300
        case ndefReaderSessionErrorTagNotWritable = 400
        case ndefReaderSessionErrorTagUpdateFailure = 401
        case ndefReaderSessionErrorTagSizeTooSmall = 402
        case ndefReaderSessionErrorZeroLengthMessage = 403

        /// `catch NFCReaderError.readerSessionInvalidationErrorUserCanceled { … }`.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? NFCReaderError)?.code == code
        }

        /// A short English description (not Apple's localized strings).
        public var defaultMessage: String {
            switch self {
            case .readerErrorUnsupportedFeature: return "feature not supported"
            case .readerErrorSecurityViolation: return "security violation"
            case .readerErrorInvalidParameter: return "invalid parameter"
            case .readerErrorInvalidParameterLength: return "invalid parameter length"
            case .readerErrorParameterOutOfBound: return "parameter out of bounds"
            case .readerErrorRadioDisabled: return "radio disabled"
            case .readerErrorIneligible: return "not eligible"
            case .readerErrorAccessNotAccepted: return "access not accepted"
            case .readerTransceiveErrorTagConnectionLost: return "tag connection lost"
            case .readerTransceiveErrorRetryExceeded: return "retry exceeded"
            case .readerTransceiveErrorTagResponseError: return "tag response error"
            case .readerTransceiveErrorSessionInvalidated: return "session invalidated"
            case .readerTransceiveErrorTagNotConnected: return "tag is not connected"
            case .readerTransceiveErrorPacketTooLong: return "packet too long"
            case .readerSessionInvalidationErrorUserCanceled: return "session invalidated by user"
            case .readerSessionInvalidationErrorSessionTimeout: return "session timeout"
            case .readerSessionInvalidationErrorSessionTerminatedUnexpectedly: return "session terminated unexpectedly"
            case .readerSessionInvalidationErrorSystemIsBusy: return "system resource unavailable"
            case .readerSessionInvalidationErrorFirstNDEFTagRead: return "first NDEF tag read"
            case .tagCommandConfigurationErrorInvalidParameters: return "invalid tag command parameters"
            case .ndefReaderSessionErrorTagNotWritable: return "tag is not writable"
            case .ndefReaderSessionErrorTagUpdateFailure: return "tag update failure"
            case .ndefReaderSessionErrorTagSizeTooSmall: return "tag capacity too small"
            case .ndefReaderSessionErrorZeroLengthMessage: return "zero-length NDEF message"
            }
        }
    }

    public let code: Code
    /// What happened, in words; defaults to `code.defaultMessage`.
    public let message: String
    /// The ISO 15693 error code the tag answered, under `NFCISO15693TagResponseErrorKey`.
    public var iso15693ResponseError: Int?

    public init(_ code: Code, message: String? = nil) {
        self.code = code
        self.message = message ?? code.defaultMessage
    }

    /// Apple's bridged-error initializer; `NSLocalizedDescriptionKey` becomes the message, the
    /// rest of `userInfo` is not kept.
    public init(_ code: Code, userInfo: [String: Any]) {
        self.init(code, message: userInfo[NSLocalizedDescriptionKey] as? String)
    }

    // MARK: Foundation bridging (NSError-style access as on iOS)

    public static var errorDomain: String { NFCErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let iso15693ResponseError { info[NFCISO15693TagResponseErrorKey] = iso15693ResponseError }
        return info
    }
    /// Apple's bridged errors expose the `NSError` user info as `userInfo`.
    public var userInfo: [String: Any] { errorUserInfo }
    public var errorDescription: String? { message }
    public var localizedDescription: String { message }
    public var description: String { "\(message) (NFCError \(code.rawValue))" }
}

// Apple's bridged error structs expose every code as a static on the error type.
extension NFCReaderError {
    public static var readerErrorUnsupportedFeature: Code { .readerErrorUnsupportedFeature }
    public static var readerErrorSecurityViolation: Code { .readerErrorSecurityViolation }
    public static var readerErrorInvalidParameter: Code { .readerErrorInvalidParameter }
    public static var readerErrorInvalidParameterLength: Code { .readerErrorInvalidParameterLength }
    public static var readerErrorParameterOutOfBound: Code { .readerErrorParameterOutOfBound }
    public static var readerErrorRadioDisabled: Code { .readerErrorRadioDisabled }
    public static var readerErrorIneligible: Code { .readerErrorIneligible }
    public static var readerErrorAccessNotAccepted: Code { .readerErrorAccessNotAccepted }
    public static var readerTransceiveErrorTagConnectionLost: Code { .readerTransceiveErrorTagConnectionLost }
    public static var readerTransceiveErrorRetryExceeded: Code { .readerTransceiveErrorRetryExceeded }
    public static var readerTransceiveErrorTagResponseError: Code { .readerTransceiveErrorTagResponseError }
    public static var readerTransceiveErrorSessionInvalidated: Code { .readerTransceiveErrorSessionInvalidated }
    public static var readerTransceiveErrorTagNotConnected: Code { .readerTransceiveErrorTagNotConnected }
    public static var readerTransceiveErrorPacketTooLong: Code { .readerTransceiveErrorPacketTooLong }
    public static var readerSessionInvalidationErrorUserCanceled: Code { .readerSessionInvalidationErrorUserCanceled }
    public static var readerSessionInvalidationErrorSessionTimeout: Code { .readerSessionInvalidationErrorSessionTimeout }
    public static var readerSessionInvalidationErrorSessionTerminatedUnexpectedly: Code {
        .readerSessionInvalidationErrorSessionTerminatedUnexpectedly
    }
    public static var readerSessionInvalidationErrorSystemIsBusy: Code { .readerSessionInvalidationErrorSystemIsBusy }
    public static var readerSessionInvalidationErrorFirstNDEFTagRead: Code { .readerSessionInvalidationErrorFirstNDEFTagRead }
    public static var tagCommandConfigurationErrorInvalidParameters: Code { .tagCommandConfigurationErrorInvalidParameters }
    public static var ndefReaderSessionErrorTagNotWritable: Code { .ndefReaderSessionErrorTagNotWritable }
    public static var ndefReaderSessionErrorTagUpdateFailure: Code { .ndefReaderSessionErrorTagUpdateFailure }
    public static var ndefReaderSessionErrorTagSizeTooSmall: Code { .ndefReaderSessionErrorTagSizeTooSmall }
    public static var ndefReaderSessionErrorZeroLengthMessage: Code { .ndefReaderSessionErrorZeroLengthMessage }
}
