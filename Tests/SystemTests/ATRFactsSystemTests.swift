import Foundation
import NFCTags
import TagEmulation
import Testing

// Ring 3, issue 27 item 4: ATR and reader facts in `scan`, `readers` and `doctor`, through a real
// pcscd + vpcd.
extension PCSCSystemTests {
    @Suite("ATR and reader facts through pcscd")
    struct ATRFactsSystemTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let ntagATRHex = TestPCSCD.ntagATR.map { String(format: "%02X", $0) }.joined()

        static func object(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }

        @Test func scanJSONCarriesTheATRAndNoATQAOrSAKThroughPCSC() throws {
            let tag = try TagOnReader(VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xE1), ndef: ScanVectors.uriMessage))
            defer { tag.remove() }
            let result = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let line = try #require(result.stdout.split(separator: "\n").first)
            let json = try Self.object(String(line))
            #expect(json["atr"] as? String == Self.ntagATRHex)
            #expect(json["atqa"] == nil && json["sak"] == nil, "PC/SC readers give the ATR only")
        }

        @Test(.enabled(if: SystemEnvironment.available("libnfc")))
        func libnfcGivesATQAAndSAKInScanAndReaders() throws {
            let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xE4), ndef: ScanVectors.uriMessage)
            let emulator = PN532Emulator(tag: tag)
            let path = try emulator.start()
            defer { emulator.stop() }
            let environment = ["LIBNFC_DEVICE": "pn532_uart:\(path)"]
            let atqa = tag.atqa.map { String(format: "%02X", $0) }.joined(), sak = String(format: "%02X", tag.sak)
            let result = try runCLI(["scan", "--json", "--reader", "libnfc:", "--timeout", "20"], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let line = try #require(result.stdout.split(separator: "\n").first)
            let json = try Self.object(String(line))
            #expect(json["atr"] as? String == Self.ntagATRHex)
            #expect(json["atqa"] as? String == atqa && json["sak"] as? String == sak, "\(json)")
            let readers = try runCLI(["readers", "--json", "--reader", "libnfc:"], environment: environment)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(readers.stdout.utf8)) as? [[String: Any]])
            let found = try #require(entries.first?["tag"] as? [String: Any])
            #expect(found["atqa"] as? String == atqa && found["sak"] as? String == sak, "\(found)")
        }

        @Test func readersExplainTheATRFieldByFieldAndFromPcscToolsList() throws {
            let tag = try TagOnReader(VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xE2)))
            defer { tag.remove() }
            try TestPCSCD.waitUntilCardIsPresent("Virtual PCD 00 00")
            let human = try runCLI(["readers", "--explain", "--reader", "Virtual PCD 00 00"])
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stdout.contains("\tPC/SC storage card: RID A0 00 00 03 06 (PC/SC workgroup), standard 03 (ISO 14443 A part 3), card name 00 03 (MIFARE Ultralight / NTAG21x)"),
                    "\(human.stdout)")
            let listed = FileManager.default.fileExists(atPath: "/usr/share/pcsc/smartcard_list.txt")
            if listed {
                #expect(human.stdout.contains("\t/usr/share/pcsc/smartcard_list.txt: RFID - ISO 14443 Type A - NXP Mifare Ultralight"), "\(human.stdout)")
            }
            let json = try runCLI(["readers", "--json", "--explain", "--reader", "Virtual PCD 00 00"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            let found = try #require(entries.first?["tag"] as? [String: Any])
            #expect(found["atr"] as? String == Self.ntagATRHex)
            let explanation = try #require(found["explanation"] as? [String])
            #expect(explanation.first?.hasPrefix("PC/SC storage card") == true)
            // Without --explain the JSON stays as before.
            let plain = try runCLI(["readers", "--json", "--reader", "Virtual PCD 00 00"])
            #expect(!plain.stdout.contains("explanation"))
        }

        @Test func doctorPrintsPcscdAndLibccidVersionsAndAnACSReadersFirmware() throws {
            try ACR122UByFirmwareSystemTests.renameVPCD(to: "ACS ACR122U PICC Interface")
            defer {
                try? ACR122UByFirmwareSystemTests.renameVPCD(to: "Virtual PCD")
                try? TestPCSCD.waitUntilReadersAreEmpty()
            }
            let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xE3))
            let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
            let onReader = try TagOnReader(tag, personality: reader)
            defer { onReader.remove() }
            try TestPCSCD.waitUntilCardIsPresent("ACS ACR122U PICC Interface 00 00")
            let result = try runCLI(["doctor"])
            let ccid = try String(contentsOfFile: "/usr/lib/pcsc/drivers/ifd-ccid.bundle/Contents/Info.plist", encoding: .utf8)
            let key = try #require(ccid.range(of: "CFBundleShortVersionString"))
            let version = try #require(ccid.range(of: #"<string>[0-9.]+</string>"#, options: .regularExpression,
                                                  range: key.upperBound ..< ccid.endIndex))
            let ccidVersion = ccid[version].dropFirst("<string>".count).dropLast("</string>".count)
            #expect(result.stdout.contains("[info] pcsc-versions: pcscd 1."), "\(result.stdout)")
            #expect(result.stdout.contains(", libccid \(ccidVersion)"), "\(result.stdout)")
            // vpcd passes no escape command: the firmware question went as a pseudo-APDU to the card.
            #expect(result.stdout.contains("[info] reader-firmware: ACS ACR122U PICC Interface 00 00: firmware ACR122U215"), "\(result.stdout)")
            #expect(reader.plan.log == [[0xFF, 0x00, 0x48, 0x00, 0x00]])
        }
    }
}
