import Dispatch

/// A pending action scheduled on an `NFCSessionClock`.
public protocol NFCScheduledAction: AnyObject, Sendable {
    /// Prevents the action from running if it has not started yet.
    func cancel()
}

/// The time source of a session: the time limit (201), the window that batches tag arrivals
/// and any other delay the engine waits for go through it, so tests can drive time by hand
/// instead of waiting.
public protocol NFCSessionClock: AnyObject, Sendable {
    /// Runs `action` once, `delay` from now, on any thread.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any NFCScheduledAction
}

/// The real clock: `DispatchQueue.asyncAfter` on a global queue.
public final class DispatchSessionClock: NFCSessionClock {
    public static let shared = DispatchSessionClock()

    public init() {}

    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any NFCScheduledAction {
        let item = DispatchWorkItem(block: action)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: item)
        return DispatchScheduledAction(item: item)
    }
}

private final class DispatchScheduledAction: NFCScheduledAction, @unchecked Sendable {
    // DispatchWorkItem.cancel is thread-safe.
    let item: DispatchWorkItem
    init(item: DispatchWorkItem) { self.item = item }
    func cancel() { item.cancel() }
}
