import Foundation
import NDEF
import NFCTags

/// Core NFC's `NFCNDEFStatus`, raw values included.
public enum NFCNDEFStatus: UInt, Sendable {
    case notSupported = 1
    case readWrite = 2
    case readOnly = 3

    init(_ status: NDEFTagStatus) {
        switch status {
        case .notSupported: self = .notSupported
        case .readWrite: self = .readWrite
        case .readOnly: self = .readOnly
        }
    }
}

/// Core NFC's `NFCNDEFTag`: a tag that holds NDEF messages. Completion handlers run on the
/// session's `sessionQueue`; the `async` forms come from an extension.
///
/// As on iOS a tag is an `NSObject`: `description`, `isEqual(_:)` (identity: one object per
/// detection) and `hash` work, `copy()` returns the same tag, and it adopts `NSSecureCoding`
/// (a live tag encodes its identifier but cannot be decoded back into a connection).
public protocol NFCNDEFTag: NSObjectProtocol, NSCopying, NSSecureCoding {
    /// True while the tag is in the field, the session is active and `restartPolling()` has not
    /// made this object stale.
    var isAvailable: Bool { get }
    /// The tag's NDEF status and capacity (largest message, in bytes).
    @preconcurrency func queryNDEFStatus(completionHandler: @escaping @Sendable (NFCNDEFStatus, Int, (any Error)?) -> Void)
    /// Reads the NDEF message. An empty tag gives `.ndefReaderSessionErrorZeroLengthMessage` (403).
    @preconcurrency func readNDEF(completionHandler: @escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void)
    /// Writes the message tear-safely (the tag layer writes the length last).
    @preconcurrency func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Makes the tag permanently read-only.
    @preconcurrency func writeLock(completionHandler: @escaping @Sendable ((any Error)?) -> Void)
}

extension NFCNDEFTag {
    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        try await withCheckedThrowingContinuation { continuation in
            queryNDEFStatus { status, capacity, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (status, capacity)) }
            }
        }
    }

    public func readNDEF() async throws -> NFCNDEFMessage {
        // The message is not Sendable (as on iOS): what crosses to the awaiting task is a Sendable
        // value (a session's tag: the decoded message; any other tag: the records' fields), and the
        // message is made here.
        if let tag = self as? any SessionTag {
            let decoded = try await withCheckedThrowingContinuation { continuation in
                tag.readDecodedNDEF { continuation.resume(with: $0) }
            }
            return NFCNDEFMessage(decoded: decoded)
        }
        let records = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[NDEFRecord], any Error>) in
            readNDEF { message, error in
                if let message, error == nil {
                    continuation.resume(returning: message.records.map(\.ndefRecord))
                } else {
                    continuation.resume(throwing: error ?? NFCReaderError(.readerTransceiveErrorTagResponseError))
                }
            }
        }
        return NFCNDEFMessage(records: records.map { NFCNDEFPayload($0) })
    }

    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writeNDEF(ndefMessage) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    public func writeLock() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writeLock { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
