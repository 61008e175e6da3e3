import CoreNFCLinux
import Foundation
import Synchronization

/// A clock that moves only when a test calls `advance(by:)`; due actions run in deadline order
/// on the caller's thread.
final class ManualClock: NFCSessionClock, Sendable {
    private final class Entry: NFCScheduledAction, Sendable {
        let deadline: Duration
        let order: Int
        let action: @Sendable () -> Void
        private let cancelled = Mutex(false)

        init(deadline: Duration, order: Int, action: @escaping @Sendable () -> Void) {
            self.deadline = deadline
            self.order = order
            self.action = action
        }

        func cancel() { cancelled.withLock { $0 = true } }
        var isCancelled: Bool { cancelled.withLock { $0 } }
    }

    private struct State {
        var entries: [Entry] = []
        var counter = 0
        var now: Duration = .zero
    }
    private let state = Mutex(State())

    var now: Duration { state.withLock { $0.now } }

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any NFCScheduledAction {
        state.withLock { state in
            state.counter += 1
            let entry = Entry(deadline: state.now + delay, order: state.counter, action: action)
            state.entries.append(entry)
            return entry
        }
    }

    /// Moves time forward and runs every action that became due.
    func advance(by delta: Duration) {
        state.withLock { $0.now += delta }
        while let entry = nextDue() {
            entry.action()
        }
    }

    /// Actions scheduled and not yet run or cancelled.
    var pendingCount: Int {
        state.withLock { state in state.entries.filter { !$0.isCancelled }.count }
    }

    private func nextDue() -> Entry? {
        state.withLock { state in
            state.entries.removeAll { $0.isCancelled }
            let now = state.now
            guard let due = state.entries.filter({ $0.deadline <= now })
                .min(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) }) else { return nil }
            state.entries.removeAll { $0 === due }
            return due
        }
    }
}
