import Foundation
import NFCTags
import PCSC
import ReaderCore
import Synchronization

/// The monitoring thread of `PCSCBackend`: blocks in SCardGetStatusChange on its own context,
/// turns state changes into `ReaderEvent`s, survives pcscd restarts.
final class PCSCMonitor: ReaderMonitor, Sendable {
    private let handler: @Sendable (ReaderEvent) -> Void
    private let retryInterval: Duration

    private let state = Mutex(State())

    private struct State: WaitableState {
        var context: Context?
        var stopping = false
        var finished = false
        /// The monitor thread, to tell a `stop()` from the handler.
        var thread: ObjectIdentifier?
        /// Threads waiting for `stopping` or `finished`.
        var waiters = StateWaiters()
    }

    /// What the monitor has reported about one reader.
    private struct ReaderRecord {
        var info: ReaderInfo
        var state: ReaderState
        var tag: DetectedTag?
    }

    /// Readers whose tags get the UID read (`FF CA`); others are reported without a UID.
    private let identifies: @Sendable (String) -> Bool

    init(handler: @escaping @Sendable (ReaderEvent) -> Void, retryInterval: Duration,
         identifies: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.handler = handler
        self.retryInterval = retryInterval
        self.identifies = identifies
    }

    /// - Parameter context: nil when pcscd is not reachable yet: the thread reports `.serviceLost`
    ///   and keeps trying until it is (a kiosk started before pcscd).
    func start(with context: Context?) {
        let thread = Thread { [self] in run(context) }
        thread.name = "PCSCMonitor"
        state.withLock {
            $0.context = context
            $0.thread = ObjectIdentifier(thread)
        }
        thread.start()
    }

    /// Cancels the blocking call (SCardCancel) and waits for the thread to end. From the handler
    /// itself (the monitor thread) it only asks the thread to end after the handler returns.
    ///
    /// A cancel that arrives just before the thread enters SCardGetStatusChange is lost (pcsc-lite
    /// cancels only a call in progress), so it is repeated every 50 ms until the thread has ended.
    func stop() {
        let onMonitorThread = state.change { state in
            state.stopping = true
            return ObjectIdentifier(Thread.current) == state.thread
        }
        guard !onMonitorThread else { return }
        while true {
            let (finished, blocked) = state.withLock { ($0.finished, $0.context) }
            if finished { return }
            try? blocked?.cancel()
            _ = state.wait(until: .now() + 0.05) { $0.finished }
        }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: - The thread

    private func run(_ first: Context?) {
        var current: Context? = first
        var readers: [String: ReaderRecord] = [:]
        // The PnP entry as last acknowledged (pcsc-lite ≥ 2.3 keeps a reader-change counter in it).
        var pnpState = ReaderState(reader: ReaderState.plugAndPlayReader)
        var lost = first == nil
        if lost { handler(.serviceLost(.serviceUnavailable(hint: PCSCBackend.serviceHint))) }
        while !isStopping {
            guard let ctx = current else {
                // pcscd is gone: try again every `retryInterval` until it is back or stop().
                if state.wait(until: .now() + retryInterval.timeInterval, for: \.stopping) { break }
                guard let fresh = try? Context() else { continue }
                state.withLock { $0.context = fresh }
                current = fresh
                if lost {
                    lost = false
                    handler(.serviceRestored)
                }
                continue
            }
            do throws(PCSCError) {
                try watch(ctx, &readers, &pnpState)
            } catch where error == .cancelled {
                continue  // stop() (or a stray SCardCancel): the loop condition decides
            } catch {
                if isStopping { break }
                if error.meansServiceGone || !ctx.isValid {
                    // The service went away: say so, then retract what was reported.
                    state.withLock { $0.context = nil }
                    current = nil
                    lost = true
                    handler(.serviceLost(.serviceUnavailable(hint: PCSCBackend.serviceHint)))
                    for name in readers.keys.sorted() {
                        if let tag = readers[name]?.tag { left(tag) }
                        if let info = readers[name]?.info { handler(.readerRemoved(info)) }
                    }
                    readers = [:]
                    pnpState = ReaderState(reader: ReaderState.plugAndPlayReader)
                }
                // Anything else (a reader vanishing between list and wait): resynchronise from the
                // list after a pause, so a persistent error cannot spin.
                _ = state.wait(until: .now() + retryInterval.timeInterval, for: \.stopping)
            }
        }
        // A UID read's connection nobody took closes with the monitor.
        for record in readers.values { if let tag = record.tag { PCSCParkedCards.shared.release(tag) } }
        state.change { state in
            state.context = nil
            state.finished = true
        }
    }

    /// Reports that `tag` left, closing the connection that identified it if nobody took it.
    private func left(_ tag: DetectedTag) {
        PCSCParkedCards.shared.release(tag)
        handler(.tagLeft(tag))
    }

    /// Longest wait before the reader list is compared with pcscd's again (one SCardListReaders).
    static let relistInterval: Duration = .seconds(2)

    /// Syncs the reader list, then waits for changes until an error (or cancel) ends the wait.
    private func watch(_ ctx: Context, _ readers: inout [String: ReaderRecord], _ pnpState: inout ReaderState) throws(PCSCError) {
        try syncReaders(ctx, &readers)
        while !isStopping {
            let names = readers.keys.sorted()
            var states = [pnpState] + names.map { readers[$0]!.state }
            do throws(PCSCError) {
                try ctx.getStatusChange(&states, timeout: Self.relistInterval)
            } catch where error == .timeout {
                // A safety net under the PnP reader: pcsc-lite tells a change by the reader count,
                // so a remove and an add inside one wait (a replug storm) change nothing it can
                // see. Re-listing every few seconds leaves no reader pcscd lists unwatched for longer.
                try syncReaders(ctx, &readers)
                continue
            }
            var relist = states[0].hasChanged
            states[0].acknowledge()
            pnpState = states[0]
            for var state in states.dropFirst() {
                state.acknowledge()
                guard var record = readers[state.reader] else { continue }
                if state.currentState.contains(.unknown) || state.currentState.contains(.ignore) {
                    relist = true  // the reader is going away
                }
                update(ctx, &record, with: state)
                readers[state.reader] = record
            }
            if relist { try syncReaders(ctx, &readers) }
        }
    }

    /// Adds and removes readers to match SCardListReaders, reporting each change.
    private func syncReaders(_ ctx: Context, _ readers: inout [String: ReaderRecord]) throws(PCSCError) {
        let names = try ctx.listReaders().filter { $0 != ReaderState.plugAndPlayReader }
        for name in readers.keys.sorted() where !names.contains(name) {
            if let tag = readers[name]?.tag { left(tag) }
            if let info = readers[name]?.info { handler(.readerRemoved(info)) }
            readers[name] = nil
        }
        for name in names where readers[name] == nil {
            let info = PCSCBackend.readerInfo(name)
            // UNAWARE: the next SCardGetStatusChange returns at once with the reader's state.
            readers[name] = ReaderRecord(info: info, state: ReaderState(reader: name), tag: nil)
            handler(.readerAdded(info))
        }
    }

    /// Applies one reader's new state: tag arrived, left, or swapped between two waits.
    private func update(_ ctx: Context, _ record: inout ReaderRecord, with state: ReaderState) {
        let previous = record.state
        record.state = state
        let present = state.currentState.contains(.present) && !state.currentState.contains(.mute)
        if let tag = record.tag {
            // Still present, same ATR and no card event in between: the same tag.
            let same = present && state.atr == tag.atr && state.currentCounter == previous.currentCounter
            if same { return }
            left(tag)
            record.tag = nil
        }
        guard present else { return }
        // Not on the monitor's context: a card that never answers must not stop the watch of every reader.
        if let tag = PCSCBackend.detectTag(info: record.info, atr: state.atr, readUID: identifies(record.info.name)) {
            record.tag = tag
            handler(.tagArrived(tag))
        }
    }
}
