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

    /// The minimum through libnfc too: the MAD sector's key and blocks 1–3, the NFC Forum key and
    /// sector 1 to the TLV's end (block 5), its trailer for the status; nothing else reaches the card.
    @Test("scan's MIFARE commands on pn532_uart are the minimum; write --format and --lock on a blank 1K")
    func minimumFormatAndLock() throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: try NDEFMessage(records: [.uri("https://example.com/classic")]).encoded())
        let emulator = PN532Emulator(tag: card)
        let path = try emulator.start()
        defer { emulator.stop() }
        let name = "libnfc:pn532_uart:\(path)"
        emulator.plan.reset()
        let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", name], environment: Self.unconfigured)
        #expect(scan.status == 0, "\(scan.stderr)")
        let commands = emulator.plan.log.filter { [0x60, 0x61, 0x30, 0xA0].contains($0.first ?? 0) }.map { $0.prefix(2).hexString }
        #expect(commands == ["6003", "3001", "3002", "3003", "6007", "3004", "3005", "3007"], "\(commands)")
        let readers = try runCLI(["readers", "--reader", name], environment: Self.unconfigured)
        #expect(readers.stdout.contains("MIFARE Classic 1K, NDEF in sectors 1–15"), "\(readers.stdout) \(readers.stderr)")

        let blank = VirtualMifareClassic.blank(.classic1K, uid: [0x11, 0x22, 0x33, 0x44])
        emulator.tag = blank
        let uri = "https://example.com/pn532-formatted"
        let write = try runCLI(["write", "--format", "--lock", "--uri", uri, "--timeout", "20", "--reader", name], environment: Self.unconfigured)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try MifareClassicTag(link: VirtualMifareClassicLink(blank), layout: .classic1K).readNDEF()
                == (try NDEFMessage(records: [.uri(uri)]).encoded()))
        #expect(Array(blank.block(3)[6 ... 9]) == [0x78, 0x77, 0x88, 0xC1])
        #expect(Array(blank.block(7)[6 ... 9]) == [0x07, 0x8F, 0x0F, 0x43], "locked: AN1305's read-only trailer")
    }
}
