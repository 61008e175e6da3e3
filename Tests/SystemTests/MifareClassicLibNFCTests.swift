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
}
