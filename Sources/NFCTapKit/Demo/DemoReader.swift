import CoreNFCLinux
import Foundation

/// A multi-read session as `scan` runs it (no time limit, tag details), over the demo's
/// environment, driven by its events: every tag read comes out of `nextReport`.
package struct DemoReader {
    private let session: NFCNDEFReaderSession
    private var events: NFCSessionEvents.AsyncIterator

    /// Begins the session, showing `prompt` as Core NFC's alert message, and returns once it is active.
    /// - Throws: `DemoError` when the session ended or did not start within `DemoStep.timeout`.
    package init(environment: NFCReaderEnvironment, alert: @escaping @Sendable (String) -> Void, prompt: String) async throws {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.collectTagDetails = true
        configuration.readerFilter = .nameContainsAny([DemoTags.readerName, DemoTags.vicinityReaderName])
        configuration.alertHandler = alert
        configuration.tagReportHandler = { _ in true }
        session = NFCNDEFReaderSession(configuration: configuration, environment: environment)
        session.alertMessage = prompt
        events = session.events.makeAsyncIterator()
        _ = try await next(within: DemoStep.timeout, what: "the read session did not start") {
            if case .becameActive = $0 { return true }
            return false
        }
    }

    /// The next tag read.
    /// - Throws: `DemoError` when the session ended or nothing was read within `timeout`.
    package mutating func nextReport(timeout: TimeInterval) async throws -> NFCTagReport {
        let event = try await next(within: timeout, what: "no tag was read within \(Int(timeout)) s") {
            if case .tagReport = $0 { return true }
            return false
        }
        guard case let .tagReport(report) = event else { throw DemoError("no tag report") }
        return report
    }

    /// Ends the session and waits until it has (so the next session may begin).
    package mutating func end() async {
        session.invalidate()
        while (try? await events.next()) != nil {}  // to the end: an error ends it too
    }

    /// The next event `wanted` accepts; the session is ended when none came within `timeout`.
    private mutating func next(within timeout: TimeInterval, what: String,
                               _ wanted: (NFCSessionEvent) -> Bool) async throws -> NFCSessionEvent {
        let watchdog = DemoWatchdog(session.invalidator, after: timeout)
        defer { watchdog.cancel() }
        do {
            while let event = try await events.next() {
                if wanted(event) { return event }
            }
        } catch {
            throw DemoError("the read session ended: \(error.localizedDescription)")
        }
        if await watchdog.fired { throw DemoError(what) }
        throw DemoError("the read session ended")
    }
}
