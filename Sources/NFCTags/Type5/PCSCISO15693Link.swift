import NDEF

/// ISO 15693 frames through a PC/SC reader (docs/tags-and-readers.md §7.10), chosen by
/// `profile.iso15693Path`:
///
/// - transparent exchange: one session per connection — `FF C2 00 00 02 81 00` (start) and
///   `FF C2 00 02 04 8F 02 02 03` (switch protocol, DO 8F: ISO 15693, layer 3) before the first
///   frame, then `FF C2 00 01 Lc 95 len frame 00` per frame (answer: DO C0 status, DO 97 the tag's
///   response without CRC), `FF C2 00 00 02 82 00` in `close()`;
/// - any refusal of the start, the switch or a transceive (a status word, a DO C0 error on the
///   session commands, a reply that is no session answer) switches the link to READ / UPDATE
///   BINARY for good (`transparentRefused`, which the connection remembers per reader):
///   Read Single Block → `FF B0 hi lo 00`, Write Single Block → `FF D6 hi lo Lc data`; any other
///   command is `.unsupported`.
public final class PCSCISO15693Link: ISO15693Link {
    public let transceiver: Transceiver
    public let profile: PCSCReaderProfile
    public let uid: [UInt8]
    /// The reader refused the transparent exchange on this link.
    public private(set) var transparentRefused: Bool
    private var sessionOpen = false

    /// - Throws: `.unsupported` when the reader has no ISO 15693 path (ACR122U).
    public init(transceiver: Transceiver, profile: PCSCReaderProfile, uid: [UInt8]) throws(TagError) {
        guard profile.canReadISO15693 else {
            throw TagError.unsupported("ISO 15693 (NFC-V) tags: this reader cannot read them; use \(PCSCReaderProfile.iso15693ReaderHint)")
        }
        self.transceiver = transceiver
        self.profile = profile
        self.uid = ISO15693UID.normalized(uid)
        self.transparentRefused = profile.iso15693Path == .readBinary
    }

    static let switchToISO15693: [UInt8] = [0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x02, 0x03]

    /// Opens the transparent session on first use; false when the reader refuses it.
    public var passesAnyCommand: Bool {
        if transparentRefused { return false }
        if sessionOpen { return true }
        do throws(TagError) { try openSession() } catch { return !transparentRefused }
        return sessionOpen
    }

    public func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        if !transparentRefused {
            if !sessionOpen { try openSession() }
            if sessionOpen { return try transparent(frame) }
        }
        return try blockAccess(frame)
    }

    /// Ends the transparent session, if one is open. Errors are ignored (the tag may be gone).
    public func close() {
        guard sessionOpen else { return }
        sessionOpen = false
        _ = try? transceiver.transceive(PCSCTransparentExchange.endSession)
    }

    /// Starts the session and switches it to ISO 15693. Any refusal of either (a status word, a
    /// DO C0 error, a reply that is no session answer, a reader choking on the pseudo-APDU:
    /// `PCSCTransparentExchange.startRefusal`) switches the link to block access for good.
    private func openSession() throws(TagError) {
        for command in [PCSCTransparentExchange.startSession, Self.switchToISO15693] {
            do throws(TagError) {
                let reply = try transceiver.transceive(command)
                guard reply.count >= 2 else { throw TagError.malformedReply("transparent session reply of \(reply.count) bytes") }
                let (sw1, sw2) = (reply[reply.count - 2], reply[reply.count - 1])
                guard (sw1, sw2) == (0x90, 0x00) else { throw TagError.status(sw1: sw1, sw2: sw2) }
                let response = try PCSCTransparentExchange.parse(Array(reply.dropLast(2)))
                if let status = response.errorStatus, (status.sw1, status.sw2) != (0x90, 0x00) {
                    throw TagError.status(sw1: status.sw1, sw2: status.sw2)
                }
            } catch {
                guard PCSCTransparentExchange.startRefusal(error) != nil else { throw error }
                // The session may have started before the switch failed: end it, use block access.
                if sessionOpen { _ = try? transceiver.transceive(PCSCTransparentExchange.endSession) }
                return refuse()
            }
            if command == PCSCTransparentExchange.startSession { sessionOpen = true }
        }
    }

    private func refuse() {
        sessionOpen = false
        transparentRefused = true
    }

    private func transparent(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        let reply = try transceiver.transceive(try PCSCTransparentExchange.transceive(frame))
        guard reply.count >= 2 else { throw TagError.malformedReply("transparent exchange reply of \(reply.count) bytes") }
        let (sw1, sw2) = (reply[reply.count - 2], reply[reply.count - 1])
        if PCSCTransparentExchange.refusesCommand(sw1) {
            // The reader opened the session but refuses to pass frames: block access from here on.
            close()
            refuse()
            return try blockAccess(frame)
        }
        guard (sw1, sw2) == (0x90, 0x00) else { throw TagError.status(sw1: sw1, sw2: sw2) }
        let response = try PCSCTransparentExchange.parse(Array(reply.dropLast(2)))
        if let status = response.errorStatus, (status.sw1, status.sw2) != (0x90, 0x00) {
            // §3.2.7.2: 64 01 — no answer from the tag in time (a write may still have landed).
            if (status.sw1, status.sw2) == (0x64, 0x01) { throw TagError.timeout }
            if (status.sw1, status.sw2) == (0x62, 0x82) { throw TagError.tagLost }
            if PCSCTransparentExchange.refusesCommand(status.sw1) {
                close()
                refuse()
                return try blockAccess(frame)
            }
            throw TagError.status(sw1: status.sw1, sw2: status.sw2)
        }
        guard let answer = response.iccResponse, !answer.isEmpty else { throw TagError.tagLost }
        return answer
    }

    /// Read / Write Single Block as READ / UPDATE BINARY; the reply is dressed as the tag's
    /// response (flags `00` + data), a refusal as ISO 15693 error `10` (block not available) for
    /// `6A 82` / `6B 00` / `63 00` on a read, `12` (locked) for `69 82` on a write. A write answered
    /// `63 00` stays `.status`: `Type5Tag` reads the block back before deciding.
    private func blockAccess(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        let request = try ISO15693Frame.parse(frame)
        let command = ISO15693Command(rawValue: request.code)
        var block: Int
        var rest = request.parameters
        switch command {
        case .readSingleBlock?, .writeSingleBlock?:
            guard let first = rest.first else { throw TagError.malformedReply("block command without a block number") }
            block = Int(first); rest.removeFirst()
        case .extendedReadSingleBlock?, .extendedWriteSingleBlock?:
            guard rest.count >= 2 else { throw TagError.malformedReply("extended block command without a block number") }
            block = Int(rest[0]) | Int(rest[1]) << 8; rest.removeFirst(2)
        default:
            throw TagError.unsupported("ISO 15693 command \([request.code].hexString) through this reader (it passes only block reads and writes)")
        }
        let (p1, p2) = (UInt8(block >> 8), UInt8(block & 0xFF))
        let isRead = command == .readSingleBlock || command == .extendedReadSingleBlock
        let apdu: [UInt8] = isRead ? [0xFF, 0xB0, p1, p2, 0x00] : [0xFF, 0xD6, p1, p2, UInt8(rest.count)] + rest
        let reply = try transceiver.transceive(apdu)
        guard reply.count >= 2 else { throw TagError.malformedReply("\(isRead ? "READ" : "UPDATE") BINARY reply of \(reply.count) bytes") }
        let (sw1, sw2) = (reply[reply.count - 2], reply[reply.count - 1])
        switch (sw1, sw2) {
        case (0x90, 0x00): return [0x00] + reply.dropLast(2)
        case (0x6A, 0x82), (0x6B, 0x00), (0x62, 0x82): return [0x01, 0x10]
        case (0x69, 0x82) where !isRead: return [0x01, 0x12]
        case (0x63, 0x00) where isRead: return [0x01, 0x10]
        default: throw TagError.status(sw1: sw1, sw2: sw2)
        }
    }
}
