import Dispatch
import Foundation
import Synchronization

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

/// The real clock: a dispatch timer on a global queue.
///
/// A timer source rather than `asyncAfter`: cancelling it releases its action at once, where a
/// cancelled `asyncAfter` item stays queued until its deadline. Every tag operation schedules a
/// deadline (5 s by default) and cancels it when the tag answers; a kiosk taking taps faster than
/// that would otherwise hold every cancelled deadline for its full length.
public final class DispatchSessionClock: NFCSessionClock {
    public static let shared = DispatchSessionClock()

    public init() {}

    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any NFCScheduledAction {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        let scheduled = DispatchScheduledAction(timer: DispatchSource.makeTimerSource(queue: .global()))
        // The handler keeps `scheduled` (and so the timer) alive until it fires or is cancelled,
        // whether or not the caller keeps the returned action.
        scheduled.start(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
            guard scheduled.fire() else { return }
            action()
        }
        return scheduled
    }
}

private final class DispatchScheduledAction: NFCScheduledAction {
    /// The armed timer, nil once it fired or was cancelled. Only used under the lock.
    private let timer: Mutex<(any DispatchSourceTimer)?>

    init(timer: sending any DispatchSourceTimer) { self.timer = Mutex(timer) }

    /// Starts the timer (its handler's `fire()` waits until this returns).
    func start(deadline: DispatchTime, handler: @escaping @Sendable () -> Void) {
        timer.withLock { armed in
            armed?.setEventHandler(handler: handler)
            armed?.schedule(deadline: deadline)
            armed?.resume()
        }
    }

    /// The timer fired: true once, unless cancelled first. Releases the timer.
    func fire() -> Bool {
        timer.withLock { armed in
            defer { armed = nil }
            armed?.cancel()
            return armed != nil
        }
    }

    // DispatchSource.cancel does not block; the handler (and what it holds) is released at once.
    func cancel() {
        timer.withLock { armed in
            armed?.cancel()
            armed = nil
        }
    }
}
