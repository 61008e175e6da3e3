import PCSC

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
                return ReaderSnapshot(reader: info, tag: present ? Self.detectTag(context, info: info, atr: state.atr,
                                                                                   readUID: identifiesTags(info.name)) : nil)
            }
        }
    }

    /// Builds the `DetectedTag` for a card that just arrived: technology from the ATR, UID with
    /// `FF CA 00 00 00` on a short shared connection. nil when the card left meanwhile.
    ///
    /// The connection closes with SCARD_LEAVE_CARD: resetting or unpowering would make the reader
    /// re-activate the tag (a spurious remove/insert on many readers, a new event count) and would
    /// disturb any other application using the card. Another process holding the reader exclusively
    /// does not hide the tag: it is reported with an empty UID. Without `readUID` (a reader the
    /// caller does not use) the tag is not touched and is reported with an empty UID.
    static func detectTag(_ ctx: Context, info: ReaderInfo, atr: [UInt8], readUID: Bool = true) -> DetectedTag? {
        let classification = ATRClassification.classify(atr)
        var uid: [UInt8] = []
        if readUID {
            do {
                let card = try ctx.connect(reader: info.name, share: .shared)
                if let reply = try? card.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]),
                   reply.count >= 2, reply[reply.count - 2] == 0x90, reply[reply.count - 1] == 0x00 {
                    uid = Array(reply.dropLast(2))
                }
                try? card.disconnect(.leave)
            } catch let error as PCSCError where error == .removedCard || error == .noSmartcard {
                return nil
            } catch {
                // Busy or unreadable: report the tag without a UID.
            }
        }
        return DetectedTag(reader: info, technology: classification.technology, uid: uid, atr: atr,
                           historicalBytes: classification.historicalBytes, presence: PresenceCounter.next())
    }
}
