/// The wait before starting a session again after one ended: doubles from `initial` up to
/// `maximum`, and starts over after a session that ran at least `maximum` (it was healthy).
package struct KioskBackoff: Equatable, Sendable {
    package var initial: Duration = .milliseconds(500)
    package var maximum: Duration = .seconds(10)
    private var nextDelay: Duration?

    package init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(10)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay to wait now; the following one is twice as long, capped.
    package mutating func next() -> Duration {
        let delay = nextDelay ?? initial
        nextDelay = min(delay * 2, maximum)
        return delay
    }

    package mutating func reset() {
        nextDelay = nil
    }
}
