import Foundation
import NDEF
import NFCTags
@testable import NFCTapKit
import NFCTapKitTestSupport
import TagEmulation
import Testing

/// MIFARE Classic through the application's long-running paths, in process over virtual readers:
/// the kiosk's json action and inventory's records read it like any NDEF tag (docs/tags-and-readers.md §10).
@Suite("Kiosk and inventory with MIFARE Classic (in-process, virtual readers)")
struct ClassicStationTests {
    @Test("kiosk json action: a Classic 1K with a URI is one line naming the card; a blank one is a line without records")
    func kiosk() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(out)"}"#))
        await kiosk.start()
        let uri = try NDEFMessage(records: [.uri("https://example.com/classic-kiosk")]).encoded()
        await kiosk.tap(VirtualMifareClassic.ndefFormatted(.classic1K, message: uri), expectTap: 1)
        await kiosk.tap(VirtualMifareClassic.blank(.classic1K, uid: [0x01, 0x02, 0x03, 0x04]), expectTap: 2)
        await kiosk.stop()
        let lines = try jsonLines(out)
        try #require(lines.count == 2)
        #expect(lines[0]["type"] as? String == "mifareClassic" && lines[0]["product"] as? String == "MIFARE Classic 1K")
        #expect(((lines[0]["records"] as? [[String: Any]])?.first?["uri"]) as? String == "https://example.com/classic-kiosk")
        #expect(lines[1]["uid"] as? String == "01020304" && lines[1]["product"] as? String == "MIFARE Classic 1K")
        #expect(kiosk.feedback.first == .success)
    }

    @Test("inventory: a Classic's record names it and its URI; a sector no key opens is the record's error, naming it")
    func inventory() throws {
        let h = try InventoryHarness(readers: ["Desk A"])
        h.start()
        let card = VirtualMifareClassic.ndefFormatted(.classic4K, message: try NDEFMessage(records: [.uri("https://example.com/c4")]).encoded())
        let record = try h.tap(card, on: "Desk A").record
        #expect(record.type == "mifareClassic" && record.product == "MIFARE Classic 4K" && record.summary == "https://example.com/c4")
        h.backend.remove(from: "Desk A")
        let locked = VirtualMifareClassic.ndefFormatted(.classic1K, message: try NDEFMessage(records: [.uri("https://example.com/k")]).encoded(),
                                                        uid: [0x0A, 0x0B, 0x0C, 0x0D])
        var trailer = locked.block(7)
        trailer.replaceSubrange(0 ..< 6, with: [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC])
        locked.setBlock(7, trailer)
        let refused = try h.tap(locked, on: "Desk A", at: .seconds(10))
        #expect(refused.record.error?.contains("sector 1") == true, "\(String(describing: refused.record.error))")
        _ = try h.stop()
    }
}
