import CoreNFCLinux
import Foundation
import Synchronization

/// Tag reports from the session queue, taken by the agent's bus thread; and the stop request.
package final class AgentInbox: Sendable {
    private let state = Mutex<(reports: [NFCTagReport], stop: Bool)>(([], false))

    package func post(_ report: NFCTagReport) { state.withLock { $0.reports.append(report) } }
    package func take() -> [NFCTagReport] { state.withLock { s in defer { s.reports = [] }; return s.reports } }
    package func requestStop() { state.withLock { $0.stop = true } }

    package var hasWork: Bool { state.withLock { !$0.reports.isEmpty || $0.stop } }
    package var stopRequested: Bool { state.withLock { $0.stop } }
}

/// The agent's machine output: one JSON object per line on stdout (the journal keeps it under
/// systemd). Every line has `"event"`: started, reading, paused, resumed, tap, unread, skipped, action, closed, paired, error.
package enum AgentEvents {
    /// Serializes whole lines on stdout.
    private static let lock = Mutex(())

    package static func emit(_ event: String, _ fields: [(String, JSONValue)] = []) {
        let text = JSONValue.object([("event", .string(event))] + fields).jsonText
        lock.withLock { _ in
            print(text)
            StandardOutput.flush()
        }
    }
}
