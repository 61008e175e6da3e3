import CoreNFCLinux
import Foundation

/// Core NFC errors in the words a desk user needs, with the documented exit codes.
package enum ScanFailure {
    /// The session ended by itself with `error` before the command was done.
    /// - Parameter timeout: the `--timeout` in seconds, for the 201 message.
    package static func sessionEnded(_ error: NFCReaderError, timeout: Double) -> CLIError {
        switch error.code {
        case .readerSessionInvalidationErrorSessionTimeout:
            return CLIError("no tag was presented within \(seconds(timeout)) (--timeout 0 waits without limit)",
                            status: ExitStatus.noTag)
        case .readerErrorUnsupportedFeature:
            // No pcscd, no reader, or --reader matched nothing: the message says which and the fix.
            return CLIError(error.message, status: ExitStatus.noReader)
        case .readerSessionInvalidationErrorSessionTerminatedUnexpectedly:
            return CLIError("the reader went away: \(error.message)", status: ExitStatus.noReader)
        case .readerSessionInvalidationErrorSystemIsBusy:
            return busy(error)
        case .readerSessionInvalidationErrorUserCanceled:
            return CLIError("interrupted", status: ExitStatus.interrupted)
        default:
            return CLIError(error.message)
        }
    }

    /// A tag operation (connect, query, read, write, lock, APDU) failed.
    /// - Parameter size: the encoded message size, for the 402 message.
    /// - Parameter writing: the operation was a write (a lost tag then says what the tag holds).
    package static func tagOperation(_ error: any Error, size: Int? = nil, capacity: Int? = nil, writing: Bool = false) -> CLIError {
        guard let error = error as? NFCReaderError else { return CLIError(String(describing: error)) }
        switch error.code {
        case .readerTransceiveErrorTagConnectionLost where writing:
            return CLIError("the tag left the reader before the write completed (\(error.message)); \(Self.tearSafe): hold it still and run write again")
        case .readerTransceiveErrorTagConnectionLost:
            return CLIError("the tag left the reader (\(error.message)): hold it still and try again")
        case .ndefReaderSessionErrorTagNotWritable:
            return CLIError("the tag is read-only (\(error.message))")
        case .ndefReaderSessionErrorTagSizeTooSmall:
            if let size, let capacity { return tooSmall(size: size, capacity: capacity) }
            return CLIError("the message does not fit on the tag (\(error.message))")
        case .ndefReaderSessionErrorTagUpdateFailure:
            return CLIError("the write did not complete (\(error.message))")
        case .ndefReaderSessionErrorZeroLengthMessage:
            return CLIError("the message is empty")
        case .readerSessionInvalidationErrorSystemIsBusy:
            return busy(error)
        default:
            return CLIError(error.message)
        }
    }

    /// What a tag holds after a tear-safe write the tag left in the middle of (specs §1, §2: the
    /// length is written last), when it cannot be read back to say more.
    static let tearSafe = "the tag holds its previous message or an empty one, never a corrupt one"

    /// What the tag holds after a failed write, from reading it back (`readBack`: the message,
    /// or the read's error), said as it is: the new message after all, an empty one, another one,
    /// a torn write (the tag stopped answering: `tearSafe`), or content that cannot be read.
    package static func holding(after readBack: Result<NFCNDEFMessage, any Error>, isNew: (NFCNDEFMessage) -> Bool) -> String {
        switch readBack {
        case let .success(message) where isNew(message):
            return "the tag holds the new message after all (read back)"
        case let .success(message):
            return "the tag holds a message of \(message.length) bytes that is not the new one (read back)"
        case let .failure(error as NFCReaderError) where error.code == .ndefReaderSessionErrorZeroLengthMessage:
            return "the tag holds an empty message (read back)"
        case let .failure(error as NFCReaderError) where [.readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorRetryExceeded,
                                                           .readerTransceiveErrorTagNotConnected].contains(error.code):
            // Silence only: a tag that answered the read-back with garbage (102) gets no guarantee.
            return "it did not answer a read-back (\(error.message)); a torn write leaves it with its previous message or an empty one, never a corrupt one"
        case let .failure(error):
            return "what the tag holds cannot be read back (\((error as? NFCReaderError)?.message ?? "\(error)"))"
        }
    }

    /// Core NFC's 402 in numbers.
    package static func tooSmall(size: Int, capacity: Int) -> CLIError {
        CLIError("the message of \(size) bytes does not fit: the tag holds \(capacity) bytes")
    }

    private static func busy(_ error: NFCReaderError) -> CLIError {
        CLIError("\(error.message): close the other program using the reader and try again", status: ExitStatus.noReader)
    }

    /// `5 s`, `0.5 s`.
    package static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}
