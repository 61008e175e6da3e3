import Dispatch
import PCSC
import ReaderCore
import Synchronization

/// The connection that read a new card's UID, kept open for the read of the same tap: one
/// `SCardConnect` per tap (docs/architecture.md, "Threads and queues").
///
/// The monitor's UID read parks its card here under the tag's presence; `PCSCBackend.connect(to:)`
/// takes it instead of connecting again (switching it to exclusive with `SCardReconnect`, leaving
/// the card as it is, when the session asks for exclusive access). A parked connection nobody takes
/// is closed when its tag leaves, when its monitor stops, or after `limit`, so another program can
/// have the reader. Closing runs on the reader's lane, behind any exchange still running there.
final class PCSCParkedCards: Sendable {
    static let shared = PCSCParkedCards()

    /// How long an unclaimed connection stays open.
    static let limit: Duration = .seconds(5)

    // @unchecked: a parked `Card` has one owner at a time: the lane that parked it, then whoever takes it (once) or the lane that closes it.
    private struct Parked: @unchecked Sendable {
        let card: Card
        let reader: ReaderInfo
    }

    private let cards = Mutex<[UInt64: Parked]>([:])

    /// Keeps `card`, the connection that identified `tag`, for `take(_:)`.
    func park(_ card: Card, for tag: DetectedTag) {
        let parked = Parked(card: card, reader: tag.reader)
        cards.withLock { $0[tag.presence] = parked }
        let presence = tag.presence
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.limit.timeInterval) { [self] in
            close(presence)
        }
    }

    /// The connection parked for `tag` (this arrival only), handed out once.
    func take(_ tag: DetectedTag) -> Card? {
        cards.withLock { cards -> Parked? in
            guard let parked = cards[tag.presence], parked.reader.name == tag.reader.name else { return nil }
            cards[tag.presence] = nil
            return parked
        }?.card
    }

    /// Closes the connection parked for `tag`, if nobody took it.
    func release(_ tag: DetectedTag) {
        close(tag.presence)
    }

    /// Closes, now, every connection parked on `reader` for another arrival than `tag`'s. An
    /// exclusive connect runs this first: a second `PCSCBackend` of this process watching the same
    /// reader read the card's UID too and parked its own shared connection, which would hold the
    /// exclusive one off until its limit (the connect returned after 5.0 s). Nobody uses a parked
    /// connection, so the caller, having taken it out of the registry, closes it on its own thread:
    /// the close must be done before the connect that follows.
    func closeOthers(on reader: ReaderInfo, keeping tag: DetectedTag) {
        let others = cards.withLock { cards -> [Parked] in
            let keys = cards.compactMap { $0.key != tag.presence && $0.value.reader.name == reader.name ? $0.key : nil }
            return keys.compactMap { cards.removeValue(forKey: $0) }
        }
        for parked in others { try? parked.card.disconnect(.leave) }
    }

    /// How many connections are parked now (tests).
    var count: Int { cards.withLock { $0.count } }

    private func close(_ presence: UInt64) {
        guard let parked = cards.withLock({ $0.removeValue(forKey: presence) }) else { return }
        ReaderLane.lane(for: parked.reader).async { try? parked.card.disconnect(.leave) }
    }
}
