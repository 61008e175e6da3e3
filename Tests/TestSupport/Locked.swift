import Synchronization

/// A value that test recorders share between the queues that record and the test: a `Mutex` in a
/// class, because a `Mutex` itself cannot be captured by the escaping closures that record.
// @unchecked: `value` is only touched inside `lock`; recorders keep tags and messages, which are not
// Sendable (as on iOS), and the test reads them once the session has handed them over.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = Mutex(())
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { _ in try body(&value) }
    }

    package var current: Value { withLock { $0 } }
}

extension Locked where Value == [String] {
    /// Appends a line (log sinks).
    package func append(_ line: String) { withLock { $0.append(line) } }
}
