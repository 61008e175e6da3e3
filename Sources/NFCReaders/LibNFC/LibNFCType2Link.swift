import LibNFC
import NFCTags

/// NFC Forum Type 2 commands as native frames through libnfc (docs/tags-and-readers.md §1, §4):
/// READ, FAST_READ and WRITE through InDataExchange (the PN532 adds and checks CRC_A and
/// consumes WRITE's 4-bit ACK), GET_VERSION raw with CRC_A appended by hand.
final class LibNFCType2Link: Type2Link {
    private let exchanger: LibNFCExchanger

    /// FAST_READ answers are limited to 240 bytes (60 pages): the answer must fit one PN532
    /// frame (at most 262 data bytes after the status byte in an extended frame, 252 in a
    /// normal one), and a multiple of 16 keeps page ranges aligned with READ.
    static let fastReadByteLimit = 240

    init(_ exchanger: LibNFCExchanger) { self.exchanger = exchanger }

    /// READ `30 pp` → 16 bytes.
    /// - Throws: `TagError` (`.malformedReply` for an empty or over-long answer).
    func read(page: Int) throws(TagError) -> [UInt8] {
        let reply = try exchanger.transceive([0x30, try Self.pageByte(page)])
        guard (1...16).contains(reply.count) else {
            throw TagError.malformedReply("READ answered \(reply.count) bytes, expected 16")
        }
        return reply
    }

    var fastReadLimit: Int { Self.fastReadByteLimit }

    /// FAST_READ `3A s e` → 4·(e−s+1) bytes.
    /// - Throws: `TagError.unsupported` beyond `fastReadLimit`; `.malformedReply` for a wrong length.
    func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8] {
        let s = try Self.pageByte(start), e = try Self.pageByte(end)
        guard s <= e else { throw TagError.unsupported("FAST_READ from page \(start) to \(end)") }
        let expected = 4 * (Int(e) - Int(s) + 1)
        guard expected <= fastReadLimit else {
            throw TagError.unsupported("FAST_READ of \(expected) bytes (limit \(fastReadLimit))")
        }
        let reply = try exchanger.transceive([0x3A, s, e])
        guard reply.count == expected else {
            throw TagError.malformedReply("FAST_READ answered \(reply.count) bytes, expected \(expected)")
        }
        return reply
    }

    /// WRITE `A2 pp d0 d1 d2 d3` → ACK. The PN532 consumes the 4-bit ACK (empty answer);
    /// a `0A` byte is accepted as ACK too, any other single byte is a NAK.
    /// - Throws: `TagError` (`.nak`, `.malformedReply`, `.transport` when the tag refused).
    func write(page: Int, data: [UInt8]) throws(TagError) {
        guard data.count == 4 else { throw TagError.unsupported("WRITE of \(data.count) bytes (a page is 4)") }
        let reply = try exchanger.transceive([0xA2, try Self.pageByte(page)] + data)
        switch reply.count {
        case 0: return
        case 1 where reply[0] == 0x0A: return
        case 1: throw TagError.nak(reply[0])
        default: throw TagError.malformedReply("WRITE answered \(reply.count) bytes")
        }
    }

    var canSendRawCommands: Bool { true }

    /// GET_VERSION `60` sent raw (easy framing and chip CRC off, CRC_A by hand) → 8 bytes.
    /// - Throws: `TagError` (`.malformedReply` for a bad CRC_A or length).
    /// Ultralight and Ultralight C do not implement GET_VERSION: they NAK or go mute. The exchanger
    /// re-selects the tag (waking it); a tag still there means "not implemented", reported as
    /// `.unsupported` as the `Type2Link` contract expects (the tag logic then sizes from the CC).
    func getVersion() throws(TagError) -> [UInt8] {
        let answer: [UInt8]
        do throws(TagError) {
            answer = try exchanger.run { device throws(LibNFCError) in try device.transceiveRaw([0x60], timeout: exchanger.timeout) }
        } catch TagError.transport(_, let message) {
            throw TagError.unsupported("GET_VERSION (\(message))")
        }
        let reply: [UInt8]
        do {
            reply = try LibNFCDevice.removingCRCA(answer)
        } catch {
            throw TagError.malformedReply("\(error)")
        }
        guard reply.count == 8 else {
            throw TagError.malformedReply("GET_VERSION answered \(reply.count) bytes, expected 8")
        }
        return reply
    }

    /// Any other Type 2 frame (READ_SIG, READ_CNT, …) through InDataExchange, which adds and
    /// checks CRC_A.
    func transceiveRaw(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        guard !frame.isEmpty else { throw TagError.unsupported("an empty Type 2 command") }
        return try exchanger.transceive(frame)
    }

    private static func pageByte(_ page: Int) throws(TagError) -> UInt8 {
        guard let byte = UInt8(exactly: page) else { throw TagError.unsupported("page \(page) is out of range 0-255") }
        return byte
    }
}
