import Foundation
import NFCTags
import PCSC
import ReaderCore
import Synchronization

/// One reader and the tag on it now (`PCSCBackend.snapshot()`).
public struct ReaderSnapshot: Sendable {
    public var reader: ReaderInfo
    public var tag: DetectedTag?
}

extension PCSCBackend {
    /// The readers attached now and the tag on each, without monitoring: one non-blocking
    /// SCardGetStatusChange, then `FF CA 00 00 00` on each present tag for its UID.
    /// - Throws: `ReaderError.serviceUnavailable` when pcscd is not running.
    public func snapshot() throws -> [ReaderSnapshot] {
        try mappingReaderErrors {
            let context = try Context()
            let names = try context.listReaders().filter { $0 != ReaderState.plugAndPlayReader }
            guard !names.isEmpty else { return [] }
            var states = names.map { ReaderState(reader: $0) }
            // UNAWARE states: returns at once with every reader's state.
            try context.getStatusChange(&states, timeout: .zero)
            return states.map { state in
                let info = Self.readerInfo(state.reader)
                let present = state.eventState.contains(.present) && !state.eventState.contains(.mute)
                return ReaderSnapshot(reader: info, tag: present ? Self.detectTag(info: info, atr: state.atr,
                                                                                   readUID: identifiesTags(info.name)) : nil)
            }
        }
    }

    /// How long the UID query of a new card may take before the card is reported without a UID.
    static let detectionLimit: TimeInterval = 2

    /// `detectTag(_:info:atr:)` on the reader's lane with a fresh context, waiting at most
    /// `limit`: a card that does not answer `FF CA` (stuck in waiting-time extensions) is reported
    /// without a UID instead of holding the caller — the monitor thread, which watches every reader.
    /// The query left behind ends on the lane when the driver lets go; later work on that reader
    /// waits behind it under its own deadlines.
    ///
    /// The connection that read the UID stays open (`PCSCParkedCards`) for the read of the same
    /// tap, so a tap costs one `SCardConnect`; a query that ran past `limit` closes its own.
    static func detectTag(info: ReaderInfo, atr: [UInt8], readUID: Bool = true,
                          limit: TimeInterval = detectionLimit) -> DetectedTag? {
        // A reader this process leaves alone (`--reader` names another): no exchange at all.
        guard readUID else { return unidentified(info: info, atr: atr) }
        final class Outcome: Sendable {
            /// The tag found, and whether the caller stopped waiting for it.
            let state = Mutex<(tag: DetectedTag??, gaveUp: Bool)>((nil, false))
            let done = DispatchSemaphore(value: 0)
        }
        let outcome = Outcome()
        ReaderLane.lane(for: info).async {
            guard let context = try? Context() else {
                outcome.state.withLock { $0.tag = .some(unidentified(info: info, atr: atr)) }
                outcome.done.signal()
                return
            }
            let found = identify(context, info: info, atr: atr)
            let kept = outcome.state.withLock { state -> Bool in
                guard !state.gaveUp else { return false }
                state.tag = .some(found?.tag)
                return true
            }
            if let found, let card = found.card {
                if kept { PCSCParkedCards.shared.park(card, for: found.tag) } else { try? card.disconnect(.leave) }
            }
            outcome.done.signal()
        }
        let answered = outcome.done.wait(timeout: .now() + limit) == .success
        let tag = outcome.state.withLock { state -> DetectedTag?? in
            if !answered { state.gaveUp = true }
            return state.tag
        }
        // Past the limit (and not answered meanwhile): reported from its ATR alone.
        guard let tag else { return unidentified(info: info, atr: atr) }
        return tag
    }

    /// A tag reported from its ATR alone (no UID).
    static func unidentified(info: ReaderInfo, atr: [UInt8]) -> DetectedTag {
        let classification = ATRClassification.classify(atr)
        return DetectedTag(reader: info, technology: classification.technology, uid: [], atr: atr,
                           historicalBytes: classification.historicalBytes, presence: PresenceCounter.next())
    }

    /// Builds the `DetectedTag` for a card that just arrived (`identify`), closing the connection
    /// that read its UID. nil when the card left meanwhile.
    static func detectTag(_ ctx: Context, info: ReaderInfo, atr: [UInt8], readUID: Bool = true) -> DetectedTag? {
        guard readUID else { return unidentified(info: info, atr: atr) }
        guard let found = identify(ctx, info: info, atr: atr) else { return nil }
        try? found.card?.disconnect(.leave)
        return found.tag
    }

    /// How many times the connection and the UID query are tried when the exchange itself fails.
    static let uidAttempts = 3

    /// The `DetectedTag` for a card that just arrived: technology from the ATR, UID with
    /// `FF CA 00 00 00` on a shared connection, returned open (nil when the reader was busy).
    /// nil when the card left meanwhile.
    ///
    /// The connection is to be closed with SCARD_LEAVE_CARD: resetting or unpowering would make the
    /// reader re-activate the tag (a spurious remove/insert on many readers, a new event count) and
    /// would disturb any other application using the card. Another process holding the reader
    /// exclusively does not hide the tag: it is reported with an empty UID.
    static func identify(_ ctx: Context, info: ReaderInfo, atr: [UInt8]) -> (tag: DetectedTag, card: Card?)? {
        let classification = ATRClassification.classify(atr)
        var uid: [UInt8] = []
        var open: Card?
        var reply: [UInt8]?
        // A failed exchange (a CCID hardware error, a stalled endpoint: the reader, not the card) is
        // tried again: connecting and GET DATA are idempotent, and a tag reported without its UID
        // would give a kiosk or inventory record with no key.
        for _ in 1...uidAttempts where reply == nil {
            if open == nil {
                do {
                    open = try ctx.connect(reader: info.name, share: .shared)
                } catch let error as PCSCError where error == .removedCard || error == .noSmartcard {
                    return nil
                } catch let error as PCSCError where error == .sharingViolation {
                    break // another program holds the reader exclusively: reported without a UID
                } catch {
                    continue
                }
            }
            do {
                reply = try open?.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
            } catch let error as PCSCError where error == .removedCard || error == .noSmartcard {
                // The card bounced (seen through libccid as a card enters the field): it is gone
                // for now, and pcscd reports it again when it settles. Reporting it would end a
                // single-read session on a tag that was never there to read.
                try? open?.disconnect(.leave)
                return nil
            } catch {
                continue
            }
        }
        if let reply, reply.count >= 2, reply[reply.count - 2] == 0x90, reply[reply.count - 1] == 0x00 {
            uid = Array(reply.dropLast(2))
            // ISO 15693: the reply's byte order varies by reader (docs/tags-and-readers.md §7.10).
            if classification.technology == .type5 { uid = ISO15693UID.normalized(uid) }
        }
        let tag = DetectedTag(reader: info, technology: classification.technology, uid: uid, atr: atr,
                              historicalBytes: classification.historicalBytes, presence: PresenceCounter.next())
        return (tag, open)
    }
}
