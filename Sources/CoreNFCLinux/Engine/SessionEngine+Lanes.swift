import Foundation
import ReaderCore
import Synchronization

/// One tag operation (a read, `connect(to:)`, a command) running on its reader's lane.
///
/// Exactly one side settles it: the lane when the work ends in time, or the engine queue when
/// the deadline passes, the tag leaves or the session ends. The side that loses the claim throws
/// its result away; the engine side abandons the connection (`TagConnection.abandon()`), so the
/// lane stops at its next exchange.
final class TagOperation: Sendable {
    let lane: ReaderLane
    /// The tag arrival the operation works on: its departure ends the operation.
    let presence: TagPresence
    private let state = Mutex(State())

    private struct State {
        var settled = false
        /// How to give up the connection the lane works through (`TagConnection.abandoner`): the
        /// connection itself stays on the lane.
        var abandon: (@Sendable () -> Void)?
    }

    init(lane: ReaderLane, presence: TagPresence) {
        self.lane = lane
        self.presence = presence
    }

    /// True once either side settled the operation.
    var isSettled: Bool { state.withLock { $0.settled } }

    /// Settles the operation; true for the first caller only.
    func claim() -> Bool {
        state.withLock { s in
            defer { s.settled = true }
            return !s.settled
        }
    }

    /// The connection the lane works through, abandoned if the operation was settled elsewhere.
    /// Called on the lane.
    func attach(_ link: any TagConnection) {
        let abandon = link.abandoner
        let late = state.withLock { s -> Bool in
            s.abandon = abandon
            return s.settled
        }
        if late { abandon() }
    }

    /// Gives the connection up (from the engine queue, after winning `claim()`).
    func abandonLink() {
        state.withLock { $0.abandon }?()
    }
}

extension SessionEngine {
    /// The lane of the reader `presence` is on.
    func lane(for presence: TagPresence) -> ReaderLane {
        ReaderLane.lane(for: presence.detected.reader)
    }

    /// Runs `work` on the reader's lane under the operation deadline (`operationTimeout`).
    ///
    /// - `work` runs on the lane and returns nil when it lost the claim (it must then clean up
    ///   its own connection); otherwise its result goes to `completion` on the engine queue.
    /// - When the deadline passes, the tag leaves or the reader goes, `expired(error)` makes the
    ///   result instead (engine queue, error 100, tag connection lost) and the connection is abandoned.
    /// - When the session ends first, nothing is delivered; the connection is abandoned.
    /// Engine queue.
    func runOnLane<T: Sendable>(_ presence: TagPresence,
                      work: @escaping @Sendable (TagOperation) -> T?,
                      expired: @escaping (NFCReaderError) -> T,
                      completion: @escaping (T) -> Void) {
        let operation = TagOperation(lane: lane(for: presence), presence: presence)
        let id = ObjectIdentifier(operation)
        let timer = DeadlineTimer()
        let expire: (NFCReaderError) -> Void = { [weak self, operation] error in
            guard let self, operation.claim() else { return }
            timer.action?.cancel()
            operation.abandonLink()
            self.inFlight[id] = nil
            completion(expired(error))
        }
        inFlight[id] = (operation, expire)
        if let limit = configuration.operationTimeout {
            timer.action = environment.clock.schedule(after: limit) { [weak self] in
                guard let self else { return }
                self.queue.async {
                    guard let entry = self.inFlight[id] else { return }
                    entry.expire(NFCReaderError(.readerTransceiveErrorTagConnectionLost,
                                                message: "the tag did not answer within \(Self.describe(limit)); its connection was abandoned"))
                }
            }
        }
        let completion = QueueBound(completion, on: queue)
        operation.lane.async { [weak self] in
            guard !operation.isSettled else { return }  // expired while queued behind a stuck exchange
            guard let result = work(operation) else { return }
            guard let self else { return }
            self.queue.async {
                timer.action?.cancel()
                self.inFlight[id] = nil
                completion.value(result)
            }
        }
    }

    /// Ends the operations on `presence`'s tag: it left, or its reader did (engine queue).
    func expireOperations(on presence: TagPresence) {
        for entry in inFlight.values where entry.operation.presence === presence {
            entry.expire(NFCReaderError(.readerTransceiveErrorTagConnectionLost, message: "the tag left the reader"))
        }
    }

    /// The session ended: every operation is given up and ends with 103 (engine queue).
    func abandonOperations() {
        for entry in inFlight.values {
            entry.expire(NFCReaderError(.readerTransceiveErrorSessionInvalidated))
        }
        inFlight = [:]
    }

    /// Closes `link` on its reader's lane, after any exchange still running there.
    func closeOnLane(_ link: QueueBound<any TagConnection>) {
        link.async { $0.disconnect() }
    }

    /// "5 s", "0.5 s".
    static func describe(_ duration: Duration) -> String {
        let seconds = duration.timeInterval
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// An operation's deadline timer; set and used on the engine queue.
final class DeadlineTimer: Sendable {
    private let scheduled = Mutex<(any NFCScheduledAction)?>(nil)

    var action: (any NFCScheduledAction)? {
        get { scheduled.withLock { $0 } }
        set { scheduled.withLock { $0 = newValue } }
    }
}
