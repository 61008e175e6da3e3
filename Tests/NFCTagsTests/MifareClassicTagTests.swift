import NFCTags
import TagEmulation
import Testing

/// NDEF on MIFARE Classic (AN1305) over the in-process card: exchanges at the minimum, tear-safe
/// writes, locks, keys nobody knows, 4K's 16-block sectors.
@Suite("MIFARE Classic NDEF over a link")
struct MifareClassicTagTests {
    static func message(_ size: Int) -> [UInt8] {
        // One MIME record of `size` bytes in all: a short record (header 3 + type 10 + payload)
        // up to 268 bytes, a long one (header 6) beyond.
        if size <= 268 { return [0xD2, 0x0A, UInt8(size - 13)] + Array("text/plain".utf8) + [UInt8](repeating: 0x41, count: size - 13) }
        let payload = size - 16
        return [0xC2, 0x0A, 0, 0, UInt8(payload >> 8), UInt8(payload & 0xFF)] + Array("text/plain".utf8) + [UInt8](repeating: 0x41, count: payload)
    }

    static func tag(_ card: VirtualMifareClassic, keys: [[UInt8]] = []) -> (MifareClassicTag, VirtualMifareClassicLink) {
        let link = VirtualMifareClassicLink(card)
        return (MifareClassicTag(link: link, layout: card.layout, extraKeys: keys), link)
    }

    @Test("a 100-byte message on a 1K: the MAD with its key, then one authentication per NDEF sector, blocks only to the TLV's end")
    func readAtTheMinimum() throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(100))
        let (tag, link) = Self.tag(card)
        #expect(try tag.readNDEF() == Self.message(100))
        #expect(link.log == ["auth A 3", "read 1", "read 2", "read 3",
                             "auth A 7", "read 4", "read 5", "read 6",
                             "auth A 11", "read 8", "read 9", "read 10",
                             "auth A 15", "read 12"])
        #expect(try tag.queryNDEFStatus() == (.readWrite, 716))
    }

    @Test("write: the first block says 'empty' until the rest is written; read back on a fresh connection")
    func write() throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(20))
        let (tag, link) = Self.tag(card)
        try tag.writeNDEF(Self.message(60))
        #expect(link.log.filter { $0.hasPrefix("write") } == ["write 4", "write 5", "write 6", "write 8", "write 4"])
        #expect(try Self.tag(card).0.readNDEF() == Self.message(60))
        // (A connection of its own: the read-back above authenticated other sectors of the card.)
        let (second, _) = Self.tag(card)
        try second.writeNDEF([])
        #expect(try Self.tag(card).0.readNDEF() == [])
        let (third, _) = Self.tag(card)
        #expect(throws: TagError.messageTooLarge(size: 717, capacity: 716)) { try third.writeNDEF([UInt8](repeating: 0, count: 717)) }
    }

    @Test("a write torn after every block leaves the old message, an empty one or the new one, never another")
    func tears() throws {
        let old = Self.message(40), new = Self.message(90)
        for writes in 0...7 {
            let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: old)
            card.leave(afterWrites: writes)
            do { try Self.tag(card).0.writeNDEF(new) } catch {}
            card.leave(afterWrites: nil)
            let left = try Self.tag(card).0.readNDEF()
            #expect(left == old || left == [] || left == new, "torn after \(writes) writes: \(left.count) bytes")
            if writes >= 7 { #expect(left == new) }
        }
    }

    @Test("lock: permanent, with key B; afterwards read-only, and no key writes the data blocks")
    func lock() throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(30))
        let (tag, _) = Self.tag(card)
        #expect(try tag.lockKind() == .permanent)
        try tag.writeLock()
        let (again, link) = Self.tag(card)
        #expect(try again.queryNDEFStatus().status == .readOnly)
        #expect(try again.readNDEF() == Self.message(30))
        #expect(throws: TagError.readOnly) { try again.writeNDEF(Self.message(20)) }
        #expect(Array(card.block(7)[6...9]) == [0x07, 0x8F, 0x0F, 0x43])
        try link.authenticate(block: 7, key: MifareClassicKey.transport, keyB: true)
        #expect(throws: TagError.self) { try link.writeBlock(4, [UInt8](repeating: 0, count: 16)) }
    }

    @Test("a sector no known key opens is named, never read as empty; the user's key opens it")
    func unknownKeys() throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(30))
        let secret: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC]
        var trailer = card.block(7)
        trailer.replaceSubrange(0..<6, with: secret)
        card.setBlock(7, trailer)
        #expect(throws: TagError.authenticationFailed(sector: 1)) { try Self.tag(card).0.readNDEF() }
        #expect(try Self.tag(card, keys: [secret]).0.readNDEF() == Self.message(30))
    }

    @Test("a write needing a sector no known key opens is refused before the first byte: the old message stays")
    func checkedBeforeWriting() throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(30))
        var trailer = card.block(11)
        trailer.replaceSubrange(0..<6, with: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        card.setBlock(11, trailer)
        #expect(throws: TagError.authenticationFailed(sector: 2)) { try Self.tag(card).0.writeNDEF(Self.message(90)) }
        #expect(card.writeCount == 0)
        #expect(try Self.tag(card).0.readNDEF() == Self.message(30))
    }

    @Test("hostile cards: a MAD with a bad CRC, access bits whose copies disagree, a TLV past the NDEF sectors, a blank card")
    func hostile() throws {
        let crc = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(30))
        var mad = crc.block(1)
        mad[0] ^= 0xFF
        crc.setBlock(1, mad)
        #expect(throws: TagError.self) { try Self.tag(crc).0.readNDEF() }

        let bits = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(30))
        var trailer = bits.block(7)
        trailer[6] = 0xFF
        bits.setBlock(7, trailer)
        #expect(throws: TagError.authenticationFailed(sector: 1)) { try Self.tag(bits).0.readNDEF() }

        let long = VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message(30))
        var first = long.block(4)
        first.replaceSubrange(0..<4, with: [0x03, 0xFF, 0x08, 0x00])
        long.setBlock(4, first)
        #expect(throws: TagError.self) { try Self.tag(long).0.readNDEF() }

        let blank = VirtualMifareClassic.blank(.classic1K)
        #expect(throws: TagError.notNDEFFormatted("sector 0 holds no MIFARE Application Directory (GPB 69)")) { try Self.tag(blank).0.readNDEF() }
        #expect(try Self.tag(blank).0.queryNDEFStatus() == (.notSupported, 0))
    }

    @Test("a 4K: MAD2, a 2,000-byte message across sector 16 and into the 16-block sectors, written and read back")
    func classic4K() throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic4K, message: Self.message(30))
        let (tag, _) = Self.tag(card)
        #expect(try tag.queryNDEFStatus() == (.readWrite, 3356))
        try tag.writeNDEF(Self.message(2000))
        let (again, link) = Self.tag(card)
        #expect(try again.readNDEF() == Self.message(2000))
        #expect(link.log.contains("read 64") && link.log.contains("auth A 143") && !link.log.contains("read 67"))
    }
}
