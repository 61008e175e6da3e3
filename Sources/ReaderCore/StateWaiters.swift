import Dispatch
import Synchronization

/// The threads waiting for a change of some `Mutex`-guarded state, one `DispatchSemaphore` each:
/// what a condition variable adds to a lock, without a second lock. It lives inside the guarded
/// state, so a waiter checks its condition and registers in one critical section (a change cannot
/// slip in between: no lost wake-up), and a change takes every waiter in its own critical section
/// and signals each after unlocking. Each semaphore is signalled at most once and dropped after,
/// so nothing accumulates.
package struct StateWaiters: Sendable {
    private var waiting: [DispatchSemaphore] = []

    package init() {}

    /// Threads registered now (each is gone once woken or timed out).
    package var count: Int { waiting.count }

    fileprivate mutating func add() -> DispatchSemaphore {
        let wakeUp = DispatchSemaphore(value: 0)
        waiting.append(wakeUp)
        return wakeUp
    }

    fileprivate mutating func remove(_ wakeUp: DispatchSemaphore) {
        waiting.removeAll { $0 === wakeUp }
    }

    fileprivate mutating func takeAll() -> [DispatchSemaphore] {
        defer { waiting = [] }
        return waiting
    }
}

/// A state whose changes threads wait for (in a `Mutex`).
package protocol WaitableState {
    var waiters: StateWaiters { get set }
}

extension Mutex where Value: WaitableState {
    /// Applies `body` to the state and wakes every thread waiting for a change (they re-check).
    @discardableResult
    package func change<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        let (result, waiters) = withLock { state in
            let result = body(&state)
            return (result, state.waiters.takeAll())
        }
        for waiter in waiters { waiter.signal() }
        return result
    }

    /// Waits until `ready` holds (checked under the lock after every change) or `deadline` has
    /// passed; returns whether `ready` holds.
    package func wait(until deadline: DispatchTime = .distantFuture, for ready: (Value) -> Bool) -> Bool {
        while true {
            let wakeUp: DispatchSemaphore? = withLock { state in
                ready(state) ? nil : state.waiters.add()
            }
            guard let wakeUp else { return true }
            if wakeUp.wait(timeout: deadline) == .timedOut {
                // A change may have taken it meanwhile: its signal goes to a semaphore nobody reads.
                return withLock { state in
                    state.waiters.remove(wakeUp)
                    return ready(state)
                }
            }
        }
    }
}
