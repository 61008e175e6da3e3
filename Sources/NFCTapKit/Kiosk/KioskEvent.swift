import CoreNFCLinux

/// What the kiosk did, for observers (tests, the soak); the same events are logged.
package enum KioskEvent: Sendable {
    case sessionStarted(attempt: Int)
    /// A session ended by itself (not by stop or reload); the next starts after `retryIn`.
    case sessionEnded(code: Int?, reason: String, retryIn: Duration)
    /// A reload asked for a new session (readers, backends or feedback changed).
    case sessionRestarted
    case readerAdded(String)
    case readerRemoved(String)
    case serviceLost(backend: String, reason: String)
    case serviceRestored(backend: String)
    /// One tap handled (or skipped as a duplicate). Sent before the reader's feedback.
    case tap(uid: String, reader: String, succeeded: Bool, duplicate: Bool)
    case reloaded(succeeded: Bool)
    case stopped
}
