import Foundation
import ReaderCore
import Synchronization

/// Work that may never end (a reader command its firmware never answers), run on its own thread
/// and waited for only up to a bound. What must follow the work (closing the card it holds) is
/// run by `afterwards`: at once when the work has ended, else by the work's thread when it does.
///
/// pcsc-lite cannot cancel a `SCardTransmit` (docs/tags-and-readers.md §3 "LED command that
/// never answers"), so the thread stays until the reader or pcscd gives up; nothing waits for it.
public final class BoundedWork: Sendable {
    private struct State {
        var ended = false
        var afterwards: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread and waits up to `bound` for it.
    public init(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            let pending = state.withLock { state -> [@Sendable () -> Void] in
                state.ended = true
                defer { state.afterwards = [] }
                return state.afterwards
            }
            done.signal()
            for action in pending { action() }
        }
        thread.name = name
        thread.start()
    }

    /// Waits up to `bound` for the work; true when it ended in time.
    public func wait(upTo bound: Duration) -> Bool {
        if state.withLock({ $0.ended }) { return true }
        let outcome = done.wait(timeout: .now() + bound.timeInterval)
        if outcome == .success { done.signal() } // later waiters see it ended too
        return outcome == .success
    }

    /// True once the work has ended.
    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// Runs `action` now when the work has ended, else on the work's thread right after it ends.
    public func afterwards(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.ended { return true }
            state.afterwards.append(action)
            return false
        }
        if now { action() }
    }
}
