import Dispatch
import Foundation
import Synchronization

/// A blocking queue between a session's threads and the demo's steps.
package final class DemoInbox<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    /// Signalled once per item put: a `take` that gets a signal owns one item, so the count
    /// always equals the items not yet taken.
    private let arrived = DispatchSemaphore(value: 0)

    package init() {}

    package func put(_ item: Element) {
        items.withLock { $0.append(item) }
        arrived.signal()
    }

    /// The oldest item, waiting until `deadline`; nil when none came.
    package func take(before deadline: Date) -> Element? {
        let timeout = DispatchTime.now() + max(0, deadline.timeIntervalSinceNow)
        guard arrived.wait(timeout: timeout) == .success else { return nil }
        return items.withLock { $0.removeFirst() }
    }
}
