import Foundation
import NFCTags
import PCSC
import ReaderCore
import Synchronization

/// Readers and tags through pcsc-lite (pcscd). Each call opens its own PC/SC context, so a backend
/// keeps working across pcscd restarts and may be used from any thread.
public final class PCSCBackend: ReaderBackend, Sendable {
    public let kind = ReaderBackendKind.pcsc
    /// How often a monitor tries to reach pcscd again after losing it.
    public let retryInterval: Duration
    /// Readers (by name) whose tags the monitor and `snapshot()` identify with the UID read
    /// (`FF CA 00 00 00`); tags on other readers are reported without a UID and never sent a
    /// command (a command listening to one reader leaves the others' tags alone).
    public let identifiesTags: @Sendable (String) -> Bool

    /// What the backend learned about each reader (profile, a refused raw path, feedback left
    /// unanswered), remembered for the backend's life; the process-wide registry by default.
    public let registry: PCSCReaderRegistry

    public init(retryInterval: Duration = .milliseconds(500),
                identifiesTags: @escaping @Sendable (String) -> Bool = { _ in true },
                registry: PCSCReaderRegistry = .shared) {
        self.retryInterval = retryInterval
        self.identifiesTags = identifiesTags
        self.registry = registry
    }

    /// The readers pcscd knows now (wraps SCardListReaders); `[]` when none is attached.
    /// - Throws: `ReaderError.serviceUnavailable(hint: PCSCBackend.serviceHint)` when pcscd is not running.
    public func listReaders() throws(ReaderError) -> [ReaderInfo] {
        try mappingReaderErrors { () throws(PCSCError) in
            let context = try Context()
            return try context.listReaders().filter { $0 != ReaderState.plugAndPlayReader }.map(Self.readerInfo)
        }
    }

    /// What the project knows about a reader from its PC/SC name.
    static func readerInfo(_ name: String) -> ReaderInfo {
        ReaderInfo(name: name, backend: .pcsc, supportsFeedback: PCSCReaderProfile(readerName: name).feedbackPath != .none)
    }

    /// Watches readers and tags on a dedicated thread (SCardGetStatusChange with the PnP reader).
    /// - Throws: `ReaderError.serviceUnavailable` when pcscd is not running at the start; later
    ///   losses are reported as `.serviceLost` events and retried every `retryInterval`.
    /// Starts even when pcscd is not running: the monitor reports `.serviceLost` and then
    /// `.serviceRestored` with the readers once pcscd is reachable (a session that outlives
    /// pcscd restarts, or a kiosk started before it).
    public func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws(ReaderError) -> ReaderMonitor {
        let context: Context?
        do throws(PCSCError) {
            context = try Context()
        } catch where error.meansServiceGone {
            context = nil
        } catch {
            throw error.readerError(reader: "")
        }
        let monitor = PCSCMonitor(handler: handler, retryInterval: retryInterval, identifies: identifiesTags)
        monitor.start(with: context)
        return monitor
    }

    /// Connects to the tag on `tag.reader` (SCardConnect, T=0 or T=1), shared or exclusive; for the
    /// tag the monitor just identified, takes over the connection that read its UID instead.
    /// - Throws: `ReaderError.readerBusy` (another connection holds the reader exclusively),
    ///   `.tagGone` (no card, or a card with another ATR), `.readerGone`, `.serviceUnavailable`.
    public func connect(to tag: DetectedTag, exclusive: Bool) throws(ReaderError) -> TagConnection {
        let name = tag.reader.name
        // Another backend of this process that identified the same card holds a shared connection
        // parked: it would hold an exclusive one off for up to `PCSCParkedCards.limit`.
        if exclusive { PCSCParkedCards.shared.closeOthers(on: tag.reader, keeping: tag) }
        // The connection that read this tap's UID, when the monitor kept it (one connection per tap).
        if let card = PCSCParkedCards.shared.take(tag) {
            do {
                if exclusive { try card.reconnect(share: .exclusive, initialization: .leave) }
                return PCSCTagConnection(tag: tag, card: card)
            } catch {
                // Someone else shares the card now, or it left: a fresh connection says which.
                try? card.disconnect(.leave)
            }
        }
        let card = try mappingReaderErrors(reader: name) { () throws(PCSCError) -> Card? in
            let context = try Context()
            let card = try context.connect(reader: name, share: exclusive ? .exclusive : .shared)
            // Another card on the reader since detection: not the tag the caller means.
            // (Two tags of one product share an ATR; the monitor's tagLeft/tagArrived covers that case.)
            if !tag.atr.isEmpty, try card.status().atr != tag.atr {
                try? card.disconnect(.leave)
                return nil
            }
            return card
        }
        guard let card else { throw ReaderError.tagGone }
        return PCSCTagConnection(tag: tag, card: card, registry: registry)
    }
}

/// A process-wide presence counter: every arrival gets a new value.
enum PresenceCounter {
    private static let value = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        value.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
