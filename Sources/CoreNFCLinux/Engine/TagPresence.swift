import NFCTags
import ReaderCore
import Synchronization

/// One arrival of a tag on a reader the session uses, from `tagArrived` to `tagLeft`.
/// `isPresent` is written under the engine's `state` Mutex (so it reads consistently with the
/// phase and generation there); `reportedGeneration` is the engine queue's.
final class TagPresence: Sendable {
    let detected: DetectedTag
    let backend: any ReaderBackend
    private let present = Atomic(true)
    private let reported = Mutex<Int?>(nil)

    /// False once the tag left, its reader went away or the session ended.
    var isPresent: Bool {
        get { present.load(ordering: .acquiring) }
        set { present.store(newValue, ordering: .releasing) }
    }

    /// The polling generation in which the tag was last reported; nil = not yet.
    var reportedGeneration: Int? {
        get { reported.withLock { $0 } }
        set { reported.withLock { $0 = newValue } }
    }

    init(detected: DetectedTag, backend: any ReaderBackend) {
        self.detected = detected
        self.backend = backend
    }

    func matches(_ tag: DetectedTag) -> Bool {
        detected.reader.name == tag.reader.name && detected.uid == tag.uid && detected.presence == tag.presence
    }
}

/// An open connection and, made on first use, the NDEF logic on top of it. Held by the engine
/// queue; the connection and its NDEF logic are used on the tag's reader lane only, one operation
/// at a time, and trap elsewhere (`QueueBound`).
final class ActiveConnection: Sendable {
    let tag: SessionTag
    /// The connection, owned by the tag's reader lane.
    let bound: QueueBound<any TagConnection>
    private let makeOperations: @Sendable (any TagConnection) throws -> any NDEFTagOperations
    private let operations: QueueBound<(any NDEFTagOperations)?>

    init(tag: SessionTag, link: QueueBound<any TagConnection>,
         makeOperations: @escaping @Sendable (any TagConnection) throws -> any NDEFTagOperations) {
        self.tag = tag
        self.bound = link
        self.makeOperations = makeOperations
        self.operations = QueueBound(sending: nil, to: ReaderLane.lane(for: tag.presence.detected.reader))
    }

    /// The connection; on the tag's reader lane only.
    var link: any TagConnection { bound.value }

    /// The Type 2 / Type 4 NDEF logic for this tag (reader lane).
    /// - Throws: whatever the factory throws (`TagError.unsupported` for other tags).
    func ndef() throws -> any NDEFTagOperations {
        if let made = operations.value { return made }
        let made = try makeOperations(link)
        operations.value = made
        return made
    }

    /// An APDU went over the channel outside the NDEF logic (`sendCommand`): the file the Type 4
    /// logic remembers as selected may not be any more (reader lane).
    func channelUsedDirectly() {
        (operations.value as? Type4Tag)?.forgetState()
    }
}
