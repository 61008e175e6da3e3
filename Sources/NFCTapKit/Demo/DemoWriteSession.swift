import CoreNFCLinux
import Dispatch
import Foundation

/// Writes one message the way an iOS app does: a read-write `NFCNDEFReaderSession` whose
/// delegate implements `readerSession(_:didDetect:)`, then `connect(to:)` → `queryNDEFStatus` →
/// `writeNDEF` → `invalidate()`.
// @unchecked: `session` and `whenActive` are set before `begin()` and only read after it; the message
// is never changed; the outcome is handed over through `DemoInbox`.
package final class DemoWriteSession: NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    private var session: NFCNDEFReaderSession!
    private let message: NFCNDEFMessage
    private let narrate: @Sendable (String) -> Void
    private let outcome = DemoInbox<Result<(NFCNDEFStatus, Int), NFCReaderError>>()
    private let ended = DispatchSemaphore(value: 0)
    private var whenActive: () -> Void = {}

    package init(environment: NFCReaderEnvironment, message: NFCNDEFMessage, narrate: @escaping @Sendable (String) -> Void) {
        self.message = message
        self.narrate = narrate
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.readerFilter = .exactName(DemoTags.readerName)
        configuration.alertHandler = narrate
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false,
                                       configuration: configuration, environment: environment)
    }

    /// Runs the session until the message is written; returns the status and capacity the tag
    /// reported before the write. `whenActive` runs once polling has started (the demo puts the
    /// tag on the reader there).
    /// - Throws: `DemoError` with the session's error.
    package func run(prompt: String, timeout: TimeInterval, whenActive: @escaping () -> Void) throws -> (NFCNDEFStatus, Int) {
        self.whenActive = whenActive
        session.alertMessage = prompt
        session.begin()
        let result = outcome.take(before: Date(timeIntervalSinceNow: timeout))
        session.invalidate()
        _ = ended.wait(timeout: .now() + DemoStep.timeout)
        switch result {
        case let .success(query)?: return query
        case let .failure(error)?: throw DemoError("writing failed: \(error.localizedDescription)")
        case nil: throw DemoError("no tag to write within \(Int(timeout)) s")
        }
    }

    package func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
        whenActive()
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        guard let first = tags.first else { return }
        // Tags are not Sendable (as in Apple's Core NFC); only this chain of handlers uses it.
        nonisolated(unsafe) let tag = first
        session.connect(to: tag) { [self] error in
            if let error { return fail(error) }
            tag.queryNDEFStatus { [self] status, capacity, error in
                if let error { return fail(error) }
                narrate("queryNDEFStatus: \(Self.describe(status)), capacity \(capacity) bytes")
                guard status == .readWrite else {
                    return fail(NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the tag is not writable"))
                }
                tag.writeNDEF(message) { [self] error in
                    if let error { return fail(error) }
                    narrate("writeNDEF: \(message.length) bytes written (length last, so a torn write leaves the tag empty, never corrupt)")
                    outcome.put(.success((status, capacity)))
                }
            }
        }
    }

    private func fail(_ error: any Error) {
        outcome.put(.failure(error as? NFCReaderError ?? NFCReaderError(.ndefReaderSessionErrorTagUpdateFailure,
                                                                         message: String(describing: error))))
    }

    package static func describe(_ status: NFCNDEFStatus) -> String {
        switch status {
        case .notSupported: return "not NDEF"
        case .readWrite: return "read-write"
        case .readOnly: return "read-only"
        }
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        fail(error)  // ignored when the write already succeeded: the step takes the first outcome
        ended.signal()
    }

    package func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
}
