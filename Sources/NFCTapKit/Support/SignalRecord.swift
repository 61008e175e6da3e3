import Synchronization

/// The first signal a `SignalTrap` handler saw, read by the task that runs the command.
package final class SignalRecord: Sendable {
    private let seen = Mutex<Int32?>(nil)

    package init() {}

    /// Records `number` unless a signal came before.
    package func note(_ number: Int32) {
        seen.withLock { if $0 == nil { $0 = number } }
    }

    package var first: Int32? { seen.withLock { $0 } }
}
