import Foundation

extension Duration {
    /// Seconds as a `TimeInterval` (for Foundation waits and Thread.sleep).
    package var timeInterval: TimeInterval {
        let (s, atto) = components
        return TimeInterval(s) + TimeInterval(atto) / 1e18
    }
}
