import CoreNFCLinux
import Foundation
import NDEF
@testable import NFCTapKit
import NFCTapKitTestSupport
import TagEmulation
import Testing

/// `nfctap kiosk` with ISO 15693 (Type 5) tags on an OMNIKEY-like virtual reader: the json action
/// writes the scan object, `iso15693` details and the UID included; a library label without NDEF
/// is still reported by chip and UID.
@Suite("Kiosk runner with ISO 15693 tags (in-process, virtual readers)")
struct KioskType5Tests {
    @Test("json action: a Type 5 URI tag and the Flipper SLIX2 label, each one line")
    func jsonLines15693() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let reader = "Kiosk OMNIKEY 5022"
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(out)"}"#), readers: [])
        kiosk.backend.addReader(reader, profile: .omnikey)
        await kiosk.start(waitForReaders: [reader])
        let uri: [UInt8] = [0xD1, 0x01, 0x06, 0x55, 0x04, 0x61, 0x2E, 0x63, 0x6F, 0x6D]
        await kiosk.tap(VirtualISO15693Tag.formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2), message: uri),
                        on: reader, expectTap: 1)
        await kiosk.tap(VirtualISO15693Tag.flipperSLIX2Dump(), on: reader, expectTap: 2)
        await kiosk.stop()

        let lines = try jsonLines(out)
        try #require(lines.count >= 1)
        #expect(lines[0]["type"] as? String == "type5")
        #expect(lines[0]["uid"] as? String == "E004010812345601")
        #expect(lines[0]["product"] as? String == "ICODE SLIX2")
        #expect(((lines[0]["records"] as? [[String: Any]])?.first?["uri"]) as? String == "https://a.com")
        #expect((lines[0]["iso15693"] as? [String: Any])?["manufacturer"] as? String == "NXP Semiconductors")
        #expect(kiosk.feedback.first == .success)
        if lines.count > 1 {
            #expect(lines[1]["uid"] as? String == "E004010849D0DC81")
            #expect(lines[1]["product"] as? String == "ICODE SLIX2")
        }
    }
}
