import NFCTags
import TagEmulation
import Testing

/// `write --format` on MIFARE Classic (NXP AN1305 §6): a blank card made NDEF-ready, a card
/// holding data never touched, and a format torn at any block that reads as not formatted (or
/// formatted) and finishes when run again.
@Suite("MIFARE Classic format")
struct MifareClassicFormatTests {
    static func tag(_ card: VirtualMifareClassic) -> MifareClassicTag {
        MifareClassicTag(link: VirtualMifareClassicLink(card), layout: card.layout)
    }

    /// What a finished format leaves: AN1305's formatted card with an empty NDEF message.
    static func formatted(_ layout: MifareClassicLayout) -> [[UInt8]] {
        var blocks = VirtualMifareClassic.ndefFormatted(layout, message: nil).blocks
        blocks[4] = [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13)
        return blocks
    }

    @Test("a blank 1K, 4K and Mini become AN1305's layout: MAD, NFC Forum keys, key B kept, an empty message",
          arguments: MifareClassicLayout.allCases)
    func blank(_ layout: MifareClassicLayout) throws {
        let card = VirtualMifareClassic.blank(layout)
        try Self.tag(card).format()
        #expect(card.blocks == Self.formatted(layout))
        let after = Self.tag(card)
        #expect(try after.readNDEF() == [])
        #expect(try after.queryNDEFStatus().status == .readWrite)
        try after.writeNDEF([0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62])
        #expect(try Self.tag(card).readNDEF() == [0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62])
    }

    @Test("a card holding data or a MAD is refused before anything is written")
    func notBlank() throws {
        let badge = VirtualMifareClassic.blank(.classic1K)
        badge.setBlock(9, [UInt8](repeating: 0x42, count: 16))
        #expect(throws: TagError.invalidTagData("block 9 (sector 2) holds data: nfctap formats only blank cards")) { try Self.tag(badge).format() }
        #expect(badge.writeCount == 0)
        let ndef = VirtualMifareClassic.ndefFormatted(.classic1K, message: [])
        #expect(throws: TagError.self) { try Self.tag(ndef).format() }
        #expect(ndef.writeCount == 0)
    }

    @Test("a sector no known key opens is named, and nothing is written")
    func unknownKey() throws {
        let card = VirtualMifareClassic.blank(.classic1K)
        card.setBlock(23, [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0xFF, 0x07, 0x80, 0x69, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        #expect(throws: TagError.authenticationFailed(sector: 5)) { try Self.tag(card).format() }
        #expect(card.writeCount == 0)
    }

    @Test("a format torn after any block reads as not formatted until sector 0's trailer; formatting again finishes it",
          arguments: [MifareClassicLayout.classic1K, .classic4K])
    func tears(_ layout: MifareClassicLayout) throws {
        let total = layout.sectorCount + 1 + (layout == .classic4K ? 3 : 2)  // trailers, the empty message, MAD blocks
        for writes in 0 ..< total {
            let card = VirtualMifareClassic.blank(layout)
            card.leave(afterWrites: writes)
            #expect(throws: TagError.self) { try Self.tag(card).format() }
            card.leave(afterWrites: nil)
            card.activate()
            #expect(try Self.tag(card).queryNDEFStatus().status == .notSupported, "torn after \(writes) writes")
            try Self.tag(card).format()
            #expect(card.blocks == Self.formatted(layout), "torn after \(writes) writes, then formatted again")
        }
    }
}
