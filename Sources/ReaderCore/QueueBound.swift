import Dispatch

/// State owned by one serial dispatch queue, checked on every access: reading or writing it from
/// any other context traps (`dispatchPrecondition`), in debug and release builds alike — the rule
/// swift-nio's `NIOLoopBound` enforces for event loops. Replaces "confined to the queue" comments
/// (docs/architecture.md, "Threads and queues").
///
/// The wrapper itself may be shared between threads (to reach the queue that owns it); the value
/// never leaves the queue.
// @unchecked: `stored` is only reached through `value`, which traps off `queue`.
public final class QueueBound<Value>: @unchecked Sendable {
    public let queue: DispatchQueue
    private var stored: Value

    public init(_ value: Value, on queue: DispatchQueue) {
        self.stored = value
        self.queue = queue
    }

    /// The value; only on `queue`.
    public var value: Value {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return stored
        }
        _modify {
            dispatchPrecondition(condition: .onQueue(queue))
            yield &stored
        }
    }
}
