import Foundation
import LibNFC
import NFCTags
import ReaderCore
import Synchronization

/// The libnfc backend's monitoring thread: for each device, poll for a tag while the field is
/// empty, ping the tag while one is present (and no connection is open), reopen a lost device.
///
/// Events per device: `.readerAdded` when first opened; `.tagArrived` / `.tagLeft`;
/// `.serviceLost(.readerGone)` when an open device fails (after `.tagLeft` for its tag) and
/// `.serviceRestored` once it is reopened.
final class LibNFCMonitor: ReaderMonitor, Sendable {
    private let backend: LibNFCBackend
    private let slots: [LibNFCReaderSlot]
    private let handler: @Sendable (ReaderEvent) -> Void
    private let state = Mutex(State())

    private struct State: WaitableState {
        var stopping = false
        var finished = false
        /// Threads waiting for `stopping` or `finished`.
        var waiters = StateWaiters()
    }

    private struct DeviceState {
        var added = false
        var lost = false
        var tag: DetectedTag?
        var nextAttempt = ContinuousClock.now
    }

    init(backend: LibNFCBackend, slots: [LibNFCReaderSlot], handler: @escaping @Sendable (ReaderEvent) -> Void) {
        self.backend = backend
        self.slots = slots
        self.handler = handler
        let thread = Thread { [self] in self.run() }
        thread.name = "LibNFCMonitor"
        thread.start()
    }

    /// Stops polling; returns once the handler will not be called again.
    func stop() {
        state.change { $0.stopping = true }
        for slot in slots { slot.abort() }
        _ = state.wait { $0.finished }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    /// Sleeps until `deadline` or `stop()`; false when stopping.
    private func sleep(until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = max(.zero, ContinuousClock.now.duration(to: deadline))
        return !state.wait(until: .now() + remaining.timeInterval) { $0.stopping }
    }

    private func run() {
        // The OS thread name, so tools (and the benchmark) can find this thread's CPU time.
        try? "LibNFCMonitor".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        var states = [DeviceState](repeating: DeviceState(), count: slots.count)
        defer { state.change { $0.finished = true } }
        while !isStopping {
            // Without devices there is nothing to poll: sleep until stop() (no idle wakeups).
            var wake = ContinuousClock.now + (slots.isEmpty ? .seconds(86_400) : .seconds(1))
            for index in slots.indices {
                if isStopping { return }
                if ContinuousClock.now >= states[index].nextAttempt {
                    step(slots[index], &states[index])
                }
                wake = min(wake, states[index].nextAttempt)
            }
            if !sleep(until: wake) { return }
        }
    }

    private func emit(_ event: ReaderEvent) {
        if !isStopping { handler(event) }
    }

    /// One poll or presence check on one device; sets when to look again.
    private func step(_ slot: LibNFCReaderSlot, _ state: inout DeviceState) {
        let timing = backend.timing
        enum Outcome { case arrived(LibNFCTarget), left, unchanged, busy }
        let outcome: Outcome
        do {
            let known = state.tag
            outcome = try slot.withDevice { device, slotState throws(LibNFCError) -> Outcome in
                if slotState.connectionOpen { return .busy }
                if known != nil {
                    // The tag is gone when libnfc released it or its ping fails.
                    guard let target = slotState.target, (try? device.targetIsPresent(target)) == true else {
                        slotState.target = nil
                        return .left
                    }
                    return .unchanged
                }
                guard let target = try device.selectAnyTarget() else { return .unchanged }
                slotState.target = target
                return .arrived(target)
            }
        } catch {
            if slot.isOpen {
                // A failed exchange on a healthy device (timeout, RF error): look again later.
                state.nextAttempt = .now + timing.pollInterval
                return
            }
            // Could not open, or the device failed.
            if let tag = state.tag {
                state.tag = nil
                emit(.tagLeft(tag))
            }
            if state.added && !state.lost {
                state.lost = true
                emit(.serviceLost(.readerGone(slot.info.name)))
            }
            state.nextAttempt = .now + timing.retryInterval
            return
        }
        if !state.added {
            state.added = true
            emit(.readerAdded(slot.info))
        } else if state.lost {
            state.lost = false
            emit(.serviceRestored)
        }
        switch outcome {
        case let .arrived(target):
            let tag = backend.detected(target, on: slot)
            state.tag = tag
            emit(.tagArrived(tag))
            state.nextAttempt = .now + timing.presenceInterval
        case .left:
            if let tag = state.tag { emit(.tagLeft(tag)) }
            state.tag = nil
            state.nextAttempt = .now + timing.pollInterval
        case .unchanged, .busy:
            state.nextAttempt = .now + (state.tag == nil ? timing.pollInterval : timing.presenceInterval)
        }
    }
}
