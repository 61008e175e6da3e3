import CoreNFCLinux
import Foundation

/// Writes one message the way an iOS app does, through a read-write `NFCNDEFReaderSession`
/// driven by its events: `.ndefTagsDetected` → `connect(to:)` → `queryNDEFStatus` →
/// `writeNDEF` → `invalidate()`.
package enum DemoWriter {
    /// Runs the session until the message is written; returns the status and capacity the tag
    /// reported before the write. `whenActive` runs once polling has started (the demo puts the
    /// tag on the reader there).
    /// - Throws: `DemoError` with the session's error, or when no tag came within `timeout`.
    package static func write(_ message: NFCNDEFMessage, environment: NFCReaderEnvironment, narrate: @escaping @Sendable (String) -> Void,
                              prompt: String, timeout: TimeInterval, whenActive: () -> Void) async throws -> (NFCNDEFStatus, Int) {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.readerFilter = .exactName(DemoTags.readerName)
        configuration.alertHandler = narrate
        let session = NFCNDEFReaderSession(readWriteWith: configuration, environment: environment)
        session.alertMessage = prompt
        let watchdog = DemoWatchdog(session.invalidator, after: timeout)
        var result: Result<(NFCNDEFStatus, Int), NFCReaderError>?
        do {
            for try await event in session.events {
                switch event {
                case .becameActive:
                    whenActive()
                case let .ndefTagsDetected(tags):
                    guard result == nil, let tag = tags.first else { continue }
                    result = await write(message, to: tag, in: session, narrate: narrate)
                    session.invalidate()
                default:
                    continue
                }
            }
        } catch {
            result = result ?? .failure(error as? NFCReaderError ?? NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly))
        }
        let timedOut = await watchdog.fired
        switch result {
        case let .success(query)?: return query
        case let .failure(error)?: throw DemoError("writing failed: \(error.localizedDescription)")
        case nil where timedOut: throw DemoError("no tag to write within \(Int(timeout)) s")
        case nil: throw DemoError("writing failed: the session ended")
        }
    }

    private static func write(_ message: NFCNDEFMessage, to tag: any NFCNDEFTag, in session: NFCNDEFReaderSession,
                              narrate: (String) -> Void) async -> Result<(NFCNDEFStatus, Int), NFCReaderError> {
        do {
            try await session.connect(to: tag)
            let (status, capacity) = try await tag.queryNDEFStatus()
            narrate("queryNDEFStatus: \(describe(status)), capacity \(capacity) bytes")
            guard status == .readWrite else {
                return .failure(NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the tag is not writable"))
            }
            try await tag.writeNDEF(message)
            narrate("writeNDEF: \(message.length) bytes written (length last, so a torn write leaves the tag empty, never corrupt)")
            return .success((status, capacity))
        } catch {
            return .failure(error as? NFCReaderError ?? NFCReaderError(.ndefReaderSessionErrorTagUpdateFailure,
                                                                        message: String(describing: error)))
        }
    }

    package static func describe(_ status: NFCNDEFStatus) -> String {
        switch status {
        case .notSupported: return "not NDEF"
        case .readWrite: return "read-write"
        case .readOnly: return "read-only"
        }
    }
}
