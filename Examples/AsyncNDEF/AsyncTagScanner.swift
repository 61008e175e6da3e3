// The NFC code of an iOS app written with Swift concurrency: the delegate hands the tag to a
// Task, and the tag work is a straight line of `try await` (connect, queryNDEFStatus, readNDEF,
// writeNDEF). The result comes back through a CheckedContinuation, so the caller just awaits
// `scan()`. Only the import differs from iOS (`import CoreNFC` there).
//
// Swift 6: the tag work is `try await` on the tag, and Core NFC's async methods are nonisolated:
// awaited from an actor they would send the tag off it, which the compiler refuses for a
// non-Sendable tag. So the scanner is not an actor-isolated class: the delegate runs on the
// session's own queue and hands the session and the tag to one Task.
import CoreNFCLinux

// @unchecked: the state is used by scan()'s caller, the session's queue and the reading Task in
// turn, never at once; it holds a session and messages, which are not Sendable, so no Mutex can hold it.
final class AsyncTagScanner: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    struct Outcome {
        let before: NFCNDEFMessage?
        let after: NFCNDEFMessage?
        let capacity: Int
    }

    enum ScanError: LocalizedError {
        case notNDEF
        case readOnly
        var errorDescription: String? {
            switch self {
            case .notNDEF: return "The tag is not NDEF formatted."
            case .readOnly: return "The tag is read-only."
            }
        }
    }

    private var session: NFCNDEFReaderSession?
    private var continuation: CheckedContinuation<Outcome, Error>?
    /// A text record to append to the tag's message; nil only reads.
    private var appendText: String?
    /// The outcome, handed to the caller once the session has ended.
    private var outcome: Result<Outcome, Error>?

    /// Scans one tag; with `appending` a Text record is added to its message and written back.
    func scan(appending text: String? = nil) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            self.appendText = text
            session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false)
            session?.alertMessage = "Hold your iPhone near the reader."
            session?.begin()
        }
    }

    private func resume(with result: Result<Outcome, Error>) {
        // Swift 6: the messages are not Sendable and the compiler cannot see that the awaiting caller
        // is their only user from here on; `nonisolated(unsafe)` says so.
        nonisolated(unsafe) let result = result
        continuation?.resume(with: result)
        continuation = nil
    }

    // MARK: - NFCNDEFReaderSessionDelegate

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [NFCNDEFTag]) {
        guard let first = tags.first else { return }
        // Swift 6: Core NFC's session and tag are not Sendable, and a delegate's arguments cannot be
        // sent to a Task (the compiler cannot see that Core NFC keeps no use of them); the Task is
        // their only user from here on, which `nonisolated(unsafe)` states.
        nonisolated(unsafe) let session = session, tag = first
        Task {
            do {
                let result = try await handle(tag, in: session)
                outcome = .success(result)
                session.alertMessage = result.after == nil ? "Read complete." : "Write complete."
                session.invalidate()
            } catch {
                outcome = .failure(error)
                session.invalidate(errorMessage: error.localizedDescription)
            }
        }
    }

    private func handle(_ tag: NFCNDEFTag, in session: NFCNDEFReaderSession) async throws -> Outcome {
        try await session.connect(to: tag)
        let (status, capacity) = try await tag.queryNDEFStatus()
        guard status != .notSupported else { throw ScanError.notNDEF }
        var before: NFCNDEFMessage?
        do {
            before = try await tag.readNDEF()
        } catch let error as NFCReaderError where error.code == .ndefReaderSessionErrorZeroLengthMessage {
            before = nil  // a blank tag
        }
        guard let text = appendText else { return Outcome(before: before, after: nil, capacity: capacity) }
        guard status == .readWrite else { throw ScanError.readOnly }
        guard let record = NFCNDEFPayload.wellKnownTypeTextPayload(string: text, locale: Locale(identifier: "en")) else {
            throw NFCReaderError(.readerErrorInvalidParameter)
        }
        let after = NFCNDEFMessage(records: (before?.records ?? []) + [record])
        try await tag.writeNDEF(after)
        return Outcome(before: before, after: after, capacity: capacity)
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
        // After a result the session ends with 200 (our own invalidate()); an end before one
        // (time limit, no reader, Ctrl-C) is the failure.
        resume(with: outcome ?? .failure(error))
        outcome = nil
        self.session = nil
    }
}
