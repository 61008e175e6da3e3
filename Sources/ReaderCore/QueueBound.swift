import Dispatch

/// State owned by one serial dispatch queue or one reader lane, checked on every access: reading
/// or writing it from any other context traps (`dispatchPrecondition`, `ReaderLane.isCurrent`), in
/// debug and release builds alike — the rule swift-nio's `NIOLoopBound` enforces for event loops.
/// Replaces "confined to the queue" comments (docs/architecture.md, "Threads and queues").
///
/// Made in its owner's context, the value is checked to be there (swift-nio's `NIOLoopBound.init`);
/// made anywhere else, it is taken as `sending` (swift-nio's `makeBoxSendingValue`), so the
/// compiler proves the caller keeps no other way to it (only code holding a session or the app's
/// handlers is handed over `unchecked`). The wrapper itself may be shared between
/// threads (to reach the context that owns it); the value is only used in its owner's context.
// @unchecked: `stored` is only reached through `value`, which traps outside the owning queue or lane.
public final class QueueBound<Value>: @unchecked Sendable {
    /// The context that owns the value.
    public enum Owner: Sendable {
        case queue(DispatchQueue)
        case lane(ReaderLane)
    }

    public let owner: Owner
    private var stored: Value

    /// A value made on `queue`, which owns it from now on.
    public init(_ value: Value, on queue: DispatchQueue) {
        self.stored = value
        self.owner = .queue(queue)
        checkOwner()
    }

    /// A value made on `lane`, which owns it from now on.
    public init(_ value: Value, on lane: ReaderLane) {
        self.stored = value
        self.owner = .lane(lane)
        checkOwner()
    }

    /// A value made elsewhere and handed over to `queue`.
    public init(sending value: sending Value, to queue: DispatchQueue) {
        self.stored = value
        self.owner = .queue(queue)
    }

    /// A value made elsewhere and handed over to `lane`.
    public init(sending value: sending Value, to lane: ReaderLane) {
        self.stored = value
        self.owner = .lane(lane)
    }

    /// A value the compiler cannot prove handed over: code holding a session or the app's handlers
    /// (Core NFC's sessions, delegates and handlers are not `Sendable`, on iOS either), made on
    /// another thread and only run on `queue` (docs/architecture.md, "Threads and queues").
    public init(unchecked value: Value, to queue: DispatchQueue) {
        self.stored = value
        self.owner = .queue(queue)
    }

    /// The value; only in the owner's context.
    public var value: Value {
        get {
            checkOwner()
            return stored
        }
        _modify {
            checkOwner()
            yield &stored
        }
    }

    /// Runs `body` with the value in the owner's context, after what was queued there before.
    public func async(_ body: @escaping @Sendable (Value) -> Void) {
        switch owner {
        case let .queue(queue): queue.async { body(self.value) }
        case let .lane(lane): lane.async { body(self.value) }
        }
    }

    private func checkOwner() {
        switch owner {
        case let .queue(queue):
            dispatchPrecondition(condition: .onQueue(queue))
        case let .lane(lane):
            precondition(lane.isCurrent, "QueueBound value used off the lane of \"\(lane.readerName)\"")
        }
    }
}
