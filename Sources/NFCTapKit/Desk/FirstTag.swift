import Synchronization

/// `write` and `apdu` act on one tag: the first the session hands over. Later detections (the same
/// tag seen again, a second tag) are ignored while the first is being worked on.
final class FirstTag: Sendable {
    private let taken = Mutex(false)

    /// True for the first caller only.
    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
