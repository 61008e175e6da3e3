import CoreNFCLinux
import Foundation

/// Ends a demo session that waited `timeout` for the virtual stack (a step that never comes).
package struct DemoWatchdog: Sendable {
    private let task: Task<Bool, Never>

    package init(_ invalidator: NFCSessionInvalidator, after timeout: TimeInterval) {
        task = Task {
            do { try await Task.sleep(for: .milliseconds(Int64(timeout * 1000))) } catch { return false }
            invalidator.invalidate()
            return true
        }
    }

    package func cancel() { task.cancel() }

    /// True when it ended the session.
    package var fired: Bool {
        get async {
            task.cancel()
            return await task.value
        }
    }
}
