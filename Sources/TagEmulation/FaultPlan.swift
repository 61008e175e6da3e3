import Foundation
import Synchronization

/// What can go wrong in one exchange, injected by tests and the benchmark.
public enum InjectedFault: Sendable, Equatable {
    /// The tag does not answer (as if it briefly left the field).
    case noReply
    /// Only the first `keep` bytes of the real answer arrive.
    case truncate(keep: Int)
    /// The real answer arrives with these bytes appended.
    case append([UInt8])
    /// These bytes arrive instead of the real answer.
    case replace([UInt8])
    /// An ISO 7816 status word arrives instead of the real answer.
    case statusWord(UInt8, UInt8)
    /// The tag stays in the field and never answers (a card that sends waiting-time extensions for
    /// ever): the exchange blocks until `FaultPlan.releaseStalls()` (or `FaultPlan.stallLimit`),
    /// then gets no answer.
    case stall
}

/// Per-exchange latency, "leave the field after N exchanges" and injected faults, plus a log of
/// every command that reached the tag. One plan is shared by a front end (PC/SC reader personality,
/// PN532 emulator, in-process transceiver) and the test that drives it.
public final class FaultPlan: Sendable {
    private struct Plan {
        var latency: Duration
        var leaveFieldAfter: Int?
        var faults: [Int: InjectedFault]
        var log: [[UInt8]] = []
        /// Exchanges blocked in a `.stall` now.
        var stalled = 0
        /// One semaphore per stalled exchange not yet released; `releaseStalls()` signals them all.
        var stallWaiters: [DispatchSemaphore] = []
    }

    private let plan: Mutex<Plan>

    /// - Parameters:
    ///   - latency: added to every exchange (really slept), e.g. 5 ms for the benchmark.
    ///   - leaveFieldAfter: the tag answers this many exchanges, then is gone for good.
    ///   - faults: faults keyed by 0-based exchange index.
    public init(latency: Duration = .zero, leaveFieldAfter: Int? = nil, faults: [Int: InjectedFault] = [:]) {
        plan = Mutex(Plan(latency: latency, leaveFieldAfter: leaveFieldAfter, faults: faults))
    }

    public var latency: Duration {
        get { plan.withLock { $0.latency } }
        set { plan.withLock { $0.latency = newValue } }
    }
    public var leaveFieldAfter: Int? {
        get { plan.withLock { $0.leaveFieldAfter } }
        set { plan.withLock { $0.leaveFieldAfter = newValue } }
    }
    public var faults: [Int: InjectedFault] {
        get { plan.withLock { $0.faults } }
        set { plan.withLock { $0.faults = newValue } }
    }
    /// Commands that reached the field, in order (including ones the tag did not answer).
    public var log: [[UInt8]] { plan.withLock { $0.log } }
    /// How long a `.stall` blocks at most when nobody releases it, so a forgotten stall cannot
    /// keep a test's thread for ever.
    public static let stallLimit: Duration = .seconds(120)

    /// Exchanges blocked in a `.stall` now.
    public var stalledExchanges: Int { plan.withLock { $0.stalled } }

    /// Ends every exchange blocked in a `.stall` now (they get no answer). Later stalls block again.
    public func releaseStalls() {
        let stalled = plan.withLock { plan in
            defer { plan.stallWaiters = [] }
            return plan.stallWaiters
        }
        for waiter in stalled { waiter.signal() }
    }

    /// Blocks until `releaseStalls()` or `stallLimit`.
    func stall() {
        let released = DispatchSemaphore(value: 0)
        plan.withLock {
            $0.stalled += 1
            $0.stallWaiters.append(released)
        }
        let outcome = released.wait(timeout: .now() + Self.stallLimit.seconds)
        plan.withLock { plan in
            plan.stalled -= 1
            // Timed out: no longer waiting (a release that took it meanwhile signals a semaphore nobody reads).
            if outcome == .timedOut { plan.stallWaiters.removeAll { $0 === released } }
        }
    }

    /// Number of exchanges so far.
    public var exchangeCount: Int { plan.withLock { $0.log.count } }
    /// False once the tag has left the field.
    public var tagPresent: Bool {
        plan.withLock { plan in plan.leaveFieldAfter.map { plan.log.count < $0 } ?? true }
    }

    /// Clears the log and counters (the tag is back in the field), keeping latency.
    public func reset(leaveFieldAfter: Int? = nil, faults: [Int: InjectedFault] = [:]) {
        plan.withLock {
            $0.log = []
            $0.leaveFieldAfter = leaveFieldAfter
            $0.faults = faults
        }
    }

    /// Runs one exchange: logs `command`, sleeps the latency, then answers with `answer(command)`
    /// altered by the fault planned for this exchange. nil means no answer (tag gone or mute).
    public func exchange(_ command: [UInt8], answer: ([UInt8]) -> [UInt8]?) -> [UInt8]? {
        let (index, latency, gone, fault): (Int, Duration, Bool, InjectedFault?) = plan.withLock { plan in
            let index = plan.log.count
            plan.log.append(command)
            let gone = plan.leaveFieldAfter.map { index >= $0 } ?? false
            return (index, plan.latency, gone, plan.faults[index])
        }
        _ = index
        if latency > .zero { Thread.sleep(forTimeInterval: latency.seconds) }
        if gone { return nil }
        switch fault {
        case nil: return answer(command)
        case .noReply?: return nil
        case .stall?: stall(); return nil
        case let .truncate(keep)?: return answer(command).map { Array($0.prefix(max(0, keep))) }
        case let .append(extra)?: return answer(command).map { $0 + extra }
        case let .replace(bytes)?: _ = answer(command); return bytes
        case let .statusWord(sw1, sw2)?: return [sw1, sw2]
        }
    }
}

extension Duration {
    /// Seconds as a Double.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
