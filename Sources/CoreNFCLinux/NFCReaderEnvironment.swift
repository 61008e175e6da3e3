import Foundation
import NDEF
import NFCTags
import ReaderCore
import Synchronization

/// Where a session gets its readers, tag logic and time. The process-wide default is `shared`;
/// tests and tools pass their own to a session's Linux initializer.
public struct NFCReaderEnvironment: Sendable {
    /// Makes the reader backends a session listens to (PC/SC, libnfc, virtual).
    /// - Throws: `ReaderError.serviceUnavailable` when no backend can start.
    public var makeBackends: @Sendable () throws -> [any ReaderBackend]
    /// Makes the NDEF logic (Type 2 / Type 4) for an open connection.
    /// - Throws: `TagError.unsupported` when the tag is neither.
    public var makeNDEFOperations: @Sendable (any TagConnection) throws -> any NDEFTagOperations
    /// Time for the session's limit and batching.
    public var clock: any NFCSessionClock
    /// Sessions sharing a slot are exclusive: a second `begin()` gets 203, as on iOS where one
    /// session runs at a time in the system. `shared` has one slot for the whole process.
    public var slot: NFCSessionSlot

    /// NDEF bytes read from a tag → message (relaxed decoding). Replaceable for tests.
    var decodeMessage: @Sendable ([UInt8]) throws -> NDEFMessage = { try NDEFMessage(bytes: $0, mode: .relaxed) }
    /// Message → NDEF bytes for writing. Replaceable for tests.
    var encodeMessage: @Sendable (NFCNDEFMessage) throws -> [UInt8] = { try $0.encodedBytes() }

    public init(makeBackends: @escaping @Sendable () throws -> [any ReaderBackend],
                makeNDEFOperations: @escaping @Sendable (any TagConnection) throws -> any NDEFTagOperations,
                clock: any NFCSessionClock = DispatchSessionClock.shared,
                slot: NFCSessionSlot = NFCSessionSlot()) {
        self.makeBackends = makeBackends
        self.makeNDEFOperations = makeNDEFOperations
        self.clock = clock
        self.slot = slot
    }

    private static let current = Mutex<NFCReaderEnvironment>(.systemDefault)

    /// The environment sessions use when none is given. Set it once at start-up to change the
    /// backends for the whole process (the CLI's `--backend`, `demo`).
    public static var shared: NFCReaderEnvironment {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

/// One "system" in which only one session may be active at a time.
public final class NFCSessionSlot: Sendable {
    private let holder = Mutex<(any AnyObject & Sendable)?>(nil)

    public init() {}

    /// Takes the slot for `owner`; false when another owner holds it.
    func acquire(_ owner: any AnyObject & Sendable) -> Bool {
        holder.withLock { current in
            if let current, current !== owner { return false }
            current = owner
            return true
        }
    }

    func release(_ owner: any AnyObject & Sendable) {
        holder.withLock { current in
            if current === owner { current = nil }
        }
    }

    /// True while a session holds the slot.
    public var isTaken: Bool { holder.withLock { $0 != nil } }
}
