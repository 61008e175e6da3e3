import Foundation

/// A blocking queue between a session's threads and the demo's steps.
final class DemoInbox<Element>: @unchecked Sendable {
    // @unchecked: `items` is behind `condition`.
    private let condition = NSCondition()
    private var items: [Element] = []

    func put(_ item: Element) {
        condition.lock()
        items.append(item)
        condition.signal()
        condition.unlock()
    }

    /// The oldest item, waiting until `deadline`; nil when none came.
    func take(before deadline: Date) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        return items.isEmpty ? nil : items.removeFirst()
    }
}
