import Synchronization

/// A value that test recorders share between the session's queues and the test: a `Mutex` in a
/// class, because a `Mutex` itself cannot be captured by the escaping closures that record.
// @unchecked: `value` is only touched inside `lock`; recorders keep tags and messages, which are not
// Sendable (as on iOS), and the test reads them once the session has handed them over.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Mutex(())
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.withLock { _ in body(&value) }
    }

    var current: Value { withLock { $0 } }
}
