/// The Type 2 command set over a PC/SC reader's pseudo-APDUs (PC/SC Part 3 and the ACS manuals,
/// docs/tags-and-readers.md §3), one APDU per exchange.
///
/// - READ: `FF B0 00 pp Le` → data + `90 00` (16 bytes, or 4 on Identiv readers).
/// - WRITE: `FF D6 00 pp 04 d0 d1 d2 d3` → `90 00`; `63 00` when the tag refused or did not answer.
/// - FAST_READ and GET_VERSION (ACR122U only): direct transmit to the PN532,
///   `FF 00 00 00 Lc D4 42 <frame>` (InCommunicateThru) → `D5 43 <status> <data> 90 00`.
/// Any other status word becomes `TagError.status`.
public final class PseudoAPDUType2Link: Type2Link {
    public let transceiver: Transceiver
    public let profile: PCSCReaderProfile

    public init(transceiver: Transceiver, profile: PCSCReaderProfile) {
        self.transceiver = transceiver
        self.profile = profile
    }

    public var fastReadLimit: Int { profile.fastReadLimit }
    public var canSendRawCommands: Bool { profile.supportsDirectTransmit }

    /// READ BINARY of one page number.
    /// - Throws: `.status` for an SW other than `90 00`, `.malformedReply` for no data, more than
    ///   Le bytes or a reply without SW; the transceiver's errors.
    public func read(page: Int) throws -> [UInt8] {
        let (p1, p2) = try Self.pageParameters(page)
        let data = try transmit([0xFF, 0xB0, p1, p2, profile.readBinaryLength])
        guard !data.isEmpty else { throw TagError.malformedReply("READ BINARY of page \(page) returned no data") }
        guard data.count <= Int(profile.readBinaryLength) else {
            throw TagError.malformedReply("READ BINARY of page \(page) returned \(data.count) bytes, more than \(profile.readBinaryLength)")
        }
        return data
    }

    /// UPDATE BINARY of one page.
    /// - Throws: `.status(63, 00)` when the reader reports failure (locked page, NAK, no answer),
    ///   `.malformedReply` when data comes back; `.unsupported` for data that is not 4 bytes.
    public func write(page: Int, data: [UInt8]) throws {
        guard data.count == 4 else { throw TagError.unsupported("a Type 2 page write takes 4 bytes, not \(data.count)") }
        let (p1, p2) = try Self.pageParameters(page)
        let reply = try transmit([0xFF, 0xD6, p1, p2, 0x04] + data)
        guard reply.isEmpty else {
            throw TagError.malformedReply("UPDATE BINARY answered \(reply.count) data bytes")
        }
    }

    /// FAST_READ through InCommunicateThru: `D4 42 3A s e`.
    /// - Throws: `.unsupported` off the ACR122U profile; `.nak` for a NAK; `.malformedReply` for a
    ///   wrong length; the PN532 status mapping of `communicateThru`.
    public func fastRead(from start: Int, to end: Int) throws -> [UInt8] {
        guard fastReadLimit > 0 else { throw TagError.unsupported("FAST_READ through \(profile) readers") }
        guard 0 <= start, start <= end, end <= 0xFF, (end - start + 1) * 4 <= fastReadLimit else {
            throw TagError.unsupported("FAST_READ of pages \(start)-\(end) through \(profile) readers")
        }
        let data = try communicateThru([0x3A, UInt8(start), UInt8(end)])
        if data.count == 1, data[0] != 0x0A { throw TagError.nak(data[0]) }
        guard data.count == (end - start + 1) * 4 else {
            throw TagError.malformedReply("FAST_READ \(start)-\(end) returned \(data.count) bytes")
        }
        return data
    }

    /// GET_VERSION through InCommunicateThru: `D4 42 60`.
    ///
    /// A tag without GET_VERSION (Ultralight, Ultralight C) does not answer and drops to IDLE, so
    /// the link re-selects it (InListPassiveTarget `D4 4A 01 00`) and throws `.unsupported`; if it
    /// is not found again, `.tagLost`. A NAK also re-selects, then throws `.nak`.
    public func getVersion() throws -> [UInt8] {
        guard canSendRawCommands else { throw TagError.unsupported("GET_VERSION through \(profile) readers") }
        let data: [UInt8]
        do {
            data = try communicateThru([0x60])
        } catch TagError.tagLost {
            try reselect()
            throw TagError.unsupported("the tag does not answer GET_VERSION")
        }
        if data.count == 1 {
            try reselect()
            throw TagError.nak(data[0])
        }
        guard data.count == 8 else { throw TagError.malformedReply("GET_VERSION returned \(data.count) bytes, not 8") }
        return data
    }

    // MARK: - Framing

    /// Sends one APDU and splits off SW1 SW2; anything but `90 00` throws `.status`.
    private func transmit(_ apdu: [UInt8]) throws -> [UInt8] {
        let reply = try transceiver.transceive(apdu)
        guard reply.count >= 2 else {
            throw TagError.malformedReply("reply of \(reply.count) bytes has no status word")
        }
        let sw1 = reply[reply.count - 2], sw2 = reply[reply.count - 1]
        guard sw1 == 0x90, sw2 == 0x00 else { throw TagError.status(sw1: sw1, sw2: sw2) }
        return Array(reply.dropLast(2))
    }

    /// Direct transmit of a PN532 command; returns what follows the response code.
    private func pn532(_ command: [UInt8]) throws -> [UInt8] {
        let payload = [0xD4] + command
        let reply = try transmit([0xFF, 0x00, 0x00, 0x00, UInt8(payload.count)] + payload)
        guard reply.count >= 2, reply[0] == 0xD5, reply[1] == command[0] &+ 1 else {
            throw TagError.malformedReply("PN532 answered \(reply.prefix(2).hexString) to \(payload.prefix(2).hexString)")
        }
        return Array(reply.dropFirst(2))
    }

    /// InCommunicateThru (`D4 42 frame` → `D5 43 status data`). Status (PN532 user manual §7.1):
    /// 01 timeout → `.tagLost`, 02 CRC and 03 parity → `.malformedReply`, 29 target released →
    /// `.tagLost`, others → `.transport(code: status)`.
    private func communicateThru(_ frame: [UInt8]) throws -> [UInt8] {
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

    /// InListPassiveTarget for one ISO 14443A target: `D4 4A 01 00` → `D5 4B nb …`.
    private func reselect() throws {
        let reply = try pn532([0x4A, 0x01, 0x00])
        guard let found = reply.first, found >= 1 else { throw TagError.tagLost }
    }

    /// P1 P2 of READ/UPDATE BINARY: the page number, big-endian.
    private static func pageParameters(_ page: Int) throws -> (UInt8, UInt8) {
        guard (0 ... 0xFF).contains(page) else {
            throw TagError.unsupported("page \(page) is beyond what READ BINARY addresses for a Type 2 tag")
        }
        return (0x00, UInt8(page))
    }
}
