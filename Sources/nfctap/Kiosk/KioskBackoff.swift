/// The wait before starting a session again after one ended: doubles from `initial` up to
/// `maximum`, and starts over after a session that ran at least `maximum` (it was healthy).
struct KioskBackoff: Equatable, Sendable {
    var initial: Duration = .milliseconds(500)
    var maximum: Duration = .seconds(10)
    private var nextDelay: Duration?

    init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(10)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay to wait now; the following one is twice as long, capped.
    mutating func next() -> Duration {
        let delay = nextDelay ?? initial
        nextDelay = min(delay * 2, maximum)
        return delay
    }

    mutating func reset() {
        nextDelay = nil
    }
}
