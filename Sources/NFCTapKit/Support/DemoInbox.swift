import Foundation

/// A blocking queue between a session's threads and the demo's steps.
// @unchecked: `items` is behind `condition` (a condition variable: `take` waits on it, which a
// Mutex cannot).
package final class DemoInbox<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []

    package init() {}

    package func put(_ item: Element) {
        condition.lock()
        items.append(item)
        condition.signal()
        condition.unlock()
    }

    /// The oldest item, waiting until `deadline`; nil when none came.
    package func take(before deadline: Date) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        return items.isEmpty ? nil : items.removeFirst()
    }
}
