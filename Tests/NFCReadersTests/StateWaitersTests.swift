import Dispatch
import Foundation
import ReaderCore
import Synchronization
import TagEmulation
import Testing

/// Waiting on a Mutex-guarded state with `StateWaiters` (the monitors, the vpcd client), and the
/// stalls of a `FaultPlan` that `releaseStalls()` ends.
@Suite struct StateWaitersTests {
    struct Flag: WaitableState {
        var raised = false
        var waiters = StateWaiters()
    }

    @Test("a change wakes a waiter at once, long before its deadline; no waiter stays registered")
    func changeWakes() {
        let flag = Mutex(Flag())
        let woke = DispatchSemaphore(value: 0)
        let result = Mutex<Bool?>(nil)
        Thread {
            let raised = flag.wait(until: .now() + 30) { $0.raised }
            result.withLock { $0 = raised }
            woke.signal()
        }.start()
        #expect(Self.eventually { flag.withLock { $0.waiters.count } == 1 })
        let start = ContinuousClock.now
        flag.change { $0.raised = true }
        #expect(woke.wait(timeout: .now() + 5) == .success)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(result.withLock { $0 } == true)
        #expect(flag.withLock { $0.waiters.count } == 0)
    }

    @Test("a wait whose condition never holds ends at its deadline with false and unregisters")
    func deadline() {
        let flag = Mutex(Flag())
        let start = ContinuousClock.now
        #expect(!flag.wait(until: .now() + 0.2) { $0.raised })
        #expect(ContinuousClock.now - start >= .milliseconds(190))
        #expect(flag.withLock { $0.waiters.count } == 0)
        // A change that only touches other fields wakes nobody and leaves nothing behind.
        flag.change { _ in }
        #expect(flag.wait(until: .now()) { !$0.raised })
    }

    @Test("one change wakes every waiter; a condition already true does not wait")
    func wakesAll() {
        let flag = Mutex(Flag())
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            Thread {
                if flag.wait(until: .now() + 30, for: { $0.raised }) { done.signal() }
            }.start()
        }
        #expect(Self.eventually { flag.withLock { $0.waiters.count } == 8 })
        flag.change { $0.raised = true }
        for _ in 0..<8 { #expect(done.wait(timeout: .now() + 5) == .success) }
        #expect(flag.withLock { $0.waiters.count } == 0)
        #expect(flag.wait(until: .now()) { $0.raised })
    }

    @Test("releaseStalls() ends every exchange stalled at that moment; a later stall blocks again")
    func releaseStalls() {
        let plan = FaultPlan(faults: [0: .stall, 1: .stall, 2: .stall, 3: .stall])
        let ended = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            Thread {
                if plan.exchange([0x00], answer: { _ in [0x90, 0x00] }) == nil { ended.signal() }
            }.start()
        }
        #expect(Self.eventually { plan.stalledExchanges == 3 })
        plan.releaseStalls()
        for _ in 0..<3 { #expect(ended.wait(timeout: .now() + 5) == .success) }
        #expect(Self.eventually { plan.stalledExchanges == 0 })
        Thread { _ = plan.exchange([0x00]) { _ in [0x90, 0x00] }; ended.signal() }.start()
        #expect(Self.eventually { plan.stalledExchanges == 1 })
        #expect(ended.wait(timeout: .now() + 0.2) == .timedOut)
        plan.releaseStalls()
        #expect(ended.wait(timeout: .now() + 5) == .success)
    }

    static func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > end { return false }
            usleep(2_000)
        }
        return true
    }
}
