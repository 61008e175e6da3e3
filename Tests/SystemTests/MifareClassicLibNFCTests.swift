import Foundation
import NDEF
import NFCTags
import Testing
import TagEmulation

/// MIFARE Classic through libnfc's real `pn532_uart` driver and the PN532 emulator: the chip's
/// InDataExchange carries the MIFARE commands (docs/tags-and-readers.md §10).
@Suite("MIFARE Classic over libnfc with the PN532 emulator", .serialized,
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
struct MifareClassicLibNFCTests {
    static let unconfigured = ["LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""]

    @Test("scan and write a Classic 1K on libnfc:pn532_uart:<pty>; a refused key names its sector")
    func scanWriteAndRefusedKey() throws {
        let message = try NDEFMessage(records: [.uri("https://example.com/pn532-classic")]).encoded()
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: message)
        let emulator = PN532Emulator(tag: card)
        let path = try emulator.start()
        defer { emulator.stop() }
        let name = "libnfc:pn532_uart:\(path)"
        let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", name], environment: Self.unconfigured)
        #expect(scan.status == 0, "\(scan.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any], "\(scan.stdout)")
        #expect(object["type"] as? String == "mifareClassic")
        #expect(object["uid"] as? String == card.uid.hexString)
        #expect(scan.stdout.contains("https://example.com/pn532-classic"), "\(scan.stdout)")

        let uri = "https://example.com/" + String(repeating: "p", count: 70)
        let write = try runCLI(["write", "--uri", uri, "--timeout", "20", "--reader", name], environment: Self.unconfigured)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try MifareClassicTag(link: VirtualMifareClassicLink(card), layout: .classic1K).readNDEF()
                == (try NDEFMessage(records: [.uri(uri)]).encoded()))

        // Sector 1's key A changed: every key is refused (the card halts and is selected again
        // after each), and the scan ends at once with exit 1 naming the sector.
        var trailer = card.block(7)
        trailer.replaceSubrange(0..<6, with: [0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A])
        card.setBlock(7, trailer)
        let refused = try runCLI(["scan", "--timeout", "20", "--reader", name], environment: Self.unconfigured)
        #expect(refused.status == 1 && refused.stderr.contains("sector 1"), "\(refused.stderr)")
    }

    /// `nfctap dump` through pn532_uart: libnfc reports ATQA and SAK, so the file is what the
    /// emulator's card holds, byte for byte; a sector whose keys nobody has is `??`, not invented.
    @Test("dump of a Classic 1K and an NTAG213 on libnfc:pn532_uart:<pty>", arguments: ["classic-1k", "ntag213"])
    func dump(_ preset: String) throws {
        let tag = try VirtualTagCatalog.make(preset: preset)
        if let card = tag as? VirtualMifareClassic {
            var trailer = card.block(11)
            trailer.replaceSubrange(0 ..< 6, with: [0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A])
            trailer.replaceSubrange(10 ..< 16, with: [0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A])
            card.setBlock(11, trailer)
        }
        let emulator = PN532Emulator(tag: tag)
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runCLI(["dump", "--timeout", "20", "--reader", "libnfc:pn532_uart:\(path)"], environment: Self.unconfigured)
        #expect(result.status == 0, "\(result.stderr)")
        let dump = try FlipperNFCFile.parse(result.stdout)
        #expect(dump.uid == tag.uid && dump.atqa == tag.atqa && dump.sak == tag.sak)
        switch dump.memory {
        case let .mifareClassic(m):
            let card = try #require(tag as? VirtualMifareClassic)
            #expect(m.unreadSectors == [2] && result.stderr.contains("sector 2"), "\(result.stderr)")
            for block in 0 ..< 64 where !(8 ..< 12).contains(block) { #expect(m.blocks[block].map { $0! } == card.block(block), "block \(block)") }
        case let .type2(m):
            let t = try #require(tag as? VirtualType2Tag)
            #expect(m.pages.prefix(43).flatMap { $0! } == Array(t.memory.prefix(43 * 4)))
            #expect(m.version == Type2Product.ntag213.versionBytes && m.signature == t.originalitySignature)
        default:
            Issue.record("unexpected dump \(result.stdout)")
        }
    }
}
