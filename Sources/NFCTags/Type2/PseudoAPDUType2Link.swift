/// The Type 2 command set over a PC/SC reader's pseudo-APDUs (PC/SC Part 3 and the vendors'
/// manuals, docs/tags-and-readers.md §3), one APDU per exchange.
///
/// - READ: `FF B0 00 pp Le` → data + `90 00` (16 bytes, or 4 on Identiv readers).
/// - WRITE: `FF D6 00 pp 04 d0 d1 d2 d3` → `90 00`; `63 00` when the tag refused or did not answer
///   (checked by reading the page back: some readers say `63 00` for a write that landed).
/// - Raw frames (GET_VERSION, FAST_READ, READ_SIG, …) by `profile.rawCommandPath`: the ACR122U's
///   direct transmit to its PN532 (`FF 00 00 00 Lc D4 42 frame` → `D5 43 status data 90 00`), or
///   the PC/SC Part 3 transparent exchange (`PCSCTransparentExchange`, 3 APDUs per frame).
///
/// Status words: `63 01` (PN532 timeout) is `.tagLost` and `63 7F` (PN532 got a wrong command) is
/// `.unsupported`, as ACS readers report direct-transmit failures (ACR122L/ACR122U manuals; libnfc
/// issue 251 shows `63 7F` from a Touchatag). A READ refused with `63 00`, `6A 82` or `6B 00` is
/// retried once for a single page (Feitian R502 refuses 16-byte reads that cross the end of an
/// Ultralight C), after `recover` re-presents the tag: an ACR122U answers every later READ BINARY
/// with `63 00` once one failed, until the tag is lifted (a public smartcardservices report).
/// What still fails is `.pageRefused(page:)`. Any other status word becomes `.status`.
public final class PseudoAPDUType2Link: Type2Link {
    public let transceiver: Transceiver
    public let profile: PCSCReaderProfile
    /// Re-presents the tag (PC/SC: SCardReconnect with a card reset; the emulator: re-activation).
    /// nil: no recovery beyond what the protocol offers.
    public let recover: (() throws(TagError) -> Void)?

    public init(transceiver: Transceiver, profile: PCSCReaderProfile, recover: (() throws(TagError) -> Void)? = nil) {
        self.transceiver = transceiver
        self.profile = profile
        self.recover = recover
    }

    /// The reader refused its raw path (the first transparent session or direct transmit): raw
    /// frames are off for this link, and the caller may remember it for the reader.
    public internal(set) var rawPathRefused = false
    /// A raw frame (transparent session or direct transmit) has worked on this link: a later
    /// failure is the exchange's, not the reader refusing the path.
    var sessionWorked = false

    /// An app asked for a raw frame through a reader nfctap does not know by name
    /// (`offerRawCommands()`): the PC/SC Part 3 transparent exchange is tried.
    var probingTransparentExchange = false

    /// The raw path in use: the profile's, or the transparent exchange being tried on an unknown
    /// reader; `.none` once the reader refused it.
    public var rawPath: PCSCReaderProfile.RawCommandPath {
        guard !rawPathRefused else { return .none }
        if profile.rawCommandPath != .none { return profile.rawCommandPath }
        return probingTransparentExchange ? .transparentExchange : .none
    }

    public var fastReadLimit: Int { canSendRawCommands ? PCSCReaderProfile.rawFastReadLimit : 0 }
    /// The profile has a raw path (or one is being tried) and the reader has not refused it.
    public var canSendRawCommands: Bool { rawPath != .none }

    /// A reader nfctap does not know by name (the generic profile: vpcd's `Virtual PCD`, a new
    /// model) may still implement the PC/SC Part 3 transparent exchange: when an app asks for a
    /// raw frame, it is tried (3 APDUs per frame). Not on the default read path, whose exchange
    /// count stays that of page reads. A reader that refuses it is remembered by the backend
    /// (`profile.rawCommandsRefused`) and not asked again. docs/tags-and-readers.md §3.
    public func offerRawCommands() {
        if profile.family == .generic, !profile.rawCommandsRefused { probingTransparentExchange = true }
    }

    /// READ BINARY of one page number, with the refusal handling described on the type.
    /// - Throws: `.pageRefused` when the reader refuses the page even alone; `.status` for other
    ///   SWs; `.malformedReply` for no data, more than Le bytes or no SW; the transceiver's errors.
    public func read(page: Int) throws(TagError) -> [UInt8] {
        let length = profile.readBinaryLength
        do throws(TagError) {
            return try readBinary(page: page, length: length)
        } catch let TagError.status(sw1, sw2) where Self.isPageRefusal(sw1, sw2) {
            try recoverIfLockedUp(sw1, sw2)
            guard length > 4 else { throw TagError.pageRefused(page: page, sw1: sw1, sw2: sw2) }
            do throws(TagError) {
                return try readBinary(page: page, length: 4)
            } catch let TagError.status(sw1, sw2) where Self.isPageRefusal(sw1, sw2) {
                try recoverIfLockedUp(sw1, sw2)
                throw TagError.pageRefused(page: page, sw1: sw1, sw2: sw2)
            }
        }
    }

    /// `63 00` (failed), `6A 82` (not found), `6B 00` (offset out of range): the page is beyond what
    /// the reader or the chip accepts.
    static func isPageRefusal(_ sw1: UInt8, _ sw2: UInt8) -> Bool {
        (sw1, sw2) == (0x63, 0x00) || (sw1, sw2) == (0x6A, 0x82) || (sw1, sw2) == (0x6B, 0x00)
    }

    private func recoverIfLockedUp(_ sw1: UInt8, _ sw2: UInt8) throws(TagError) {
        guard (sw1, sw2) == (0x63, 0x00), let recover else { return }
        try recover()
    }

    private func readBinary(page: Int, length: UInt8) throws(TagError) -> [UInt8] {
        let (p1, p2) = try Self.pageParameters(page)
        let data = try transmit([0xFF, 0xB0, p1, p2, length])
        guard !data.isEmpty else { throw TagError.malformedReply("READ BINARY of page \(page) returned no data") }
        guard data.count <= Int(length) else {
            throw TagError.malformedReply("READ BINARY of page \(page) returned \(data.count) bytes, more than \(length)")
        }
        return data
    }

    /// UPDATE BINARY of one page. A `63 00` answer is checked by reading the page back: an
    /// ACR122U has been seen answering `63 00` to a WRITE the tag had acknowledged, and a
    /// tear-safe write that stopped there would leave the empty message of its first step
    /// (docs/tags-and-readers.md §3 "A WRITE answered 63 00 that landed"). The page holding
    /// the data means the write landed; anything else keeps the refusal.
    /// - Throws: `.status(63, 00)` when the reader reports failure and the page does not hold
    ///   `data` (locked page, NAK, no answer), `.malformedReply` when data comes back;
    ///   `.unsupported` for data that is not 4 bytes; `.tagLost` when the read-back finds no tag.
    public func write(page: Int, data: [UInt8]) throws(TagError) {
        guard data.count == 4 else { throw TagError.unsupported("a Type 2 page write takes 4 bytes, not \(data.count)") }
        let (p1, p2) = try Self.pageParameters(page)
        let reply: [UInt8]
        do throws(TagError) {
            reply = try transmit([0xFF, 0xD6, p1, p2, 0x04] + data)
        } catch TagError.status(0x63, 0x00) {
            guard try landed(page: page, data: data) else { throw TagError.status(sw1: 0x63, sw2: 0x00) }
            return
        }
        guard reply.isEmpty else {
            throw TagError.malformedReply("UPDATE BINARY answered \(reply.count) data bytes")
        }
    }

    /// Reads `page` back after a write answered `63 00`: true when it holds `data`. A refused
    /// read-back is no evidence either way, so it counts as not landed.
    private func landed(page: Int, data: [UInt8]) throws(TagError) -> Bool {
        do throws(TagError) {
            return Array(try read(page: page).prefix(4)) == data
        } catch TagError.pageRefused, TagError.status, TagError.malformedReply {
            return false
        }
    }

    /// FAST_READ `3A s e` as a raw frame.
    /// - Throws: `.unsupported` when the reader passes no raw frames or the range exceeds the
    ///   limit; `.nak` for a NAK; `.malformedReply` for a wrong length; the raw path's errors.
    public func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8] {
        guard fastReadLimit > 0 else { throw TagError.unsupported("FAST_READ through \(profile) readers") }
        guard 0 <= start, start <= end, end <= 0xFF, (end - start + 1) * 4 <= fastReadLimit else {
            throw TagError.unsupported("FAST_READ of pages \(start)-\(end) through \(profile) readers")
        }
        let data = try transceiveRaw([0x3A, UInt8(start), UInt8(end)])
        if data.count == 1, data[0] != 0x0A { throw TagError.nak(data[0]) }
        guard data.count == (end - start + 1) * 4 else {
            throw TagError.malformedReply("FAST_READ \(start)-\(end) returned \(data.count) bytes")
        }
        return data
    }

    /// GET_VERSION `60` as a raw frame.
    ///
    /// A tag without GET_VERSION (Ultralight, Ultralight C) does not answer and drops to IDLE (or the
    /// reader reports `63 01` / `63 7F`), so the link re-selects it and throws `.unsupported`; if it
    /// is not found again, `.tagLost`. A NAK also re-selects, then throws `.nak`.
    public func getVersion() throws(TagError) -> [UInt8] {
        guard canSendRawCommands else { throw TagError.unsupported("GET_VERSION through \(profile) readers") }
        let data: [UInt8]
        do throws(TagError) {
            data = try transceiveRaw([0x60])
        } catch TagError.tagLost {
            try reselect()
            throw TagError.unsupported("the tag does not answer GET_VERSION")
        } catch let TagError.unsupported(why) where rawPath == .pn532DirectTransmit {
            try reselect() // 63 7F: the PN532 may have left the target deselected
            throw TagError.unsupported("GET_VERSION: \(why)")
        }
        if data.count == 1 {
            try reselect()
            throw TagError.nak(data[0])
        }
        guard data.count == 8 else { throw TagError.malformedReply("GET_VERSION returned \(data.count) bytes, not 8") }
        return data
    }

    /// One raw Type 2 frame (no CRC; the reader adds and checks it) and the tag's answer.
    /// - Throws: `.unsupported` on readers without a raw path (`profile.rawCommandPath == .none`)
    ///   and when the reader refuses the command; `.tagLost` when the tag does not answer.
    public func transceiveRaw(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        switch rawPath {
        case .none:
            throw TagError.unsupported("raw Type 2 commands through \(profile) readers")
        case .pn532DirectTransmit:
            do throws(TagError) {
                let answer = try communicateThru(frame)
                sessionWorked = true
                return answer
            } catch let TagError.status(sw1, sw2) where !sessionWorked && Self.meansNotImplemented(sw1, sw2) {
                // Not a PN532 reader after all (a reader named like one): no raw frames here.
                rawPathRefused = true
                throw TagError.unsupported("the reader refused a direct transmit (\(statusWordText(sw1, sw2)))")
            }
        case .transparentExchange:
            return try transparentExchange(frame)
        }
    }

    // MARK: - Framing

    /// Sends one APDU and splits off SW1 SW2; anything but `90 00` throws (see the type's notes).
    func transmit(_ apdu: [UInt8]) throws(TagError) -> [UInt8] {
        let reply = try transceiver.transceive(apdu)
        guard reply.count >= 2 else {
            throw TagError.malformedReply("reply of \(reply.count) bytes has no status word")
        }
        let sw1 = reply[reply.count - 2], sw2 = reply[reply.count - 1]
        switch (sw1, sw2) {
        case (0x90, 0x00): return Array(reply.dropLast(2))
        // ACS: the PN532 did not answer in time (ACR122L manual error codes; libnfc issue 251).
        case (0x63, 0x01): throw TagError.tagLost
        // ACS: the PN532 received a wrong command.
        case (0x63, 0x7F): throw TagError.unsupported("the reader's PN532 refused the command (63 7F)")
        default: throw TagError.status(sw1: sw1, sw2: sw2)
        }
    }

    /// Direct transmit of a PN532 command (ACR122U API v2.04 §6.1); returns what follows the
    /// response code.
    private func pn532(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        let payload = [0xD4] + command
        guard payload.count <= 0xFF else { throw TagError.unsupported("a PN532 frame of \(payload.count) bytes") }
        let reply = try transmit([0xFF, 0x00, 0x00, 0x00, UInt8(payload.count)] + payload)
        guard reply.count >= 2, reply[0] == 0xD5, reply[1] == command[0] &+ 1 else {
            throw TagError.malformedReply("PN532 answered \(reply.prefix(2).hexString) to \(payload.prefix(2).hexString)")
        }
        return Array(reply.dropFirst(2))
    }

    /// InCommunicateThru (`D4 42 frame` → `D5 43 status data`). Status (PN532 user manual §7.1,
    /// ACR122U API v2.04 Appendix D): 01 timeout → `.tagLost`, 02 CRC and 03 parity →
    /// `.malformedReply`, 29 target released → `.tagLost`, others → `.transport(code: status)`.
    private func communicateThru(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        let reply = try pn532([0x42] + frame)
        guard let status = reply.first else { throw TagError.malformedReply("InCommunicateThru answer has no status") }
        switch status & 0x3F {
        case 0x00: return Array(reply.dropFirst())
        case 0x01, 0x29: throw TagError.tagLost
        case 0x02: throw TagError.malformedReply("CRC error from the tag")
        case 0x03: throw TagError.malformedReply("parity error from the tag")
        default: throw TagError.transport(code: Int(status), message: "PN532 error \([status].hexString)")
        }
    }

    /// Brings a tag that went mute back: InListPassiveTarget (`D4 4A 01 00` → `D5 4B nb …`) through
    /// the PN532, else `recover` (a card reset), else nothing.
    private func reselect() throws(TagError) {
        if profile.rawCommandPath == .pn532DirectTransmit, !rawPathRefused {
            let reply = try pn532([0x4A, 0x01, 0x00])
            guard let found = reply.first, found >= 1 else { throw TagError.tagLost }
        } else if let recover {
            try recover()
        }
    }

    /// P1 P2 of READ/UPDATE BINARY: the page number, big-endian.
    private static func pageParameters(_ page: Int) throws(TagError) -> (UInt8, UInt8) {
        guard (0 ... 0xFF).contains(page) else {
            throw TagError.unsupported("page \(page) is beyond what READ BINARY addresses for a Type 2 tag")
        }
        return (0x00, UInt8(page))
    }
}
