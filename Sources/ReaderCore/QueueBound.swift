import Dispatch

/// State owned by one serial dispatch queue or one reader lane, checked on every access: reading
/// or writing it from any other context traps (`dispatchPrecondition`, `ReaderLane.isCurrent`), in
/// debug and release builds alike — the rule swift-nio's `NIOLoopBound` enforces for event loops.
/// Replaces "confined to the queue" comments (docs/architecture.md, "Threads and queues").
///
/// The wrapper itself may be shared between threads (to reach the context that owns it, or to
/// carry a value there: a caller's handler made on its thread and called on the session queue, a
/// connection opened on a lane and closed on the same lane later); the value is only used in its
/// owner's context.
// @unchecked: `stored` is only reached through `value`, which traps outside the owning queue or lane.
public final class QueueBound<Value>: @unchecked Sendable {
    /// The context that owns the value.
    public enum Owner: Sendable {
        case queue(DispatchQueue)
        case lane(ReaderLane)
    }

    public let owner: Owner
    private var stored: Value

    public init(_ value: Value, on queue: DispatchQueue) {
        self.stored = value
        self.owner = .queue(queue)
    }

    public init(_ value: Value, on lane: ReaderLane) {
        self.stored = value
        self.owner = .lane(lane)
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
