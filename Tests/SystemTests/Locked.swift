import Synchronization

/// A value that test recorders share between the session's queues and the test: a `Mutex` in a
/// class, because a `Mutex` itself cannot be captured by the escaping closures that record.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R {
        try mutex.withLock { try body(&$0) }
    }

    var current: Value { mutex.withLock { $0 } }
}
