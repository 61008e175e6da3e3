import CoreNFCLinux
import Foundation

/// A clock that moves only when a test calls `advance(by:)`; due actions run in deadline order
/// on the caller's thread.
final class ManualClock: NFCSessionClock, @unchecked Sendable {
    private final class Entry: NFCScheduledAction, @unchecked Sendable {
        let deadline: Duration
        let order: Int
        let action: @Sendable () -> Void
        private let lock = NSLock()
        private var cancelled = false

        init(deadline: Duration, order: Int, action: @escaping @Sendable () -> Void) {
            self.deadline = deadline
            self.order = order
            self.action = action
        }

        func cancel() { lock.lock(); cancelled = true; lock.unlock() }
        var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var counter = 0
    private(set) var now: Duration = .zero

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any NFCScheduledAction {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        let entry = Entry(deadline: now + delay, order: counter, action: action)
        entries.append(entry)
        return entry
    }

    /// Moves time forward and runs every action that became due.
    func advance(by delta: Duration) {
        lock.lock()
        now += delta
        lock.unlock()
        while let entry = nextDue() {
            entry.action()
        }
    }

    /// Actions scheduled and not yet run or cancelled.
    var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.filter { !$0.isCancelled }.count
    }

    private func nextDue() -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll { $0.isCancelled }
        guard let due = entries.filter({ $0.deadline <= now })
            .min(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) }) else { return nil }
        entries.removeAll { $0 === due }
        return due
    }
}
