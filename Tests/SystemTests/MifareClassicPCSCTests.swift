import Foundation
import NDEF
import NFCTags
import Testing
import TagEmulation

// MIFARE Classic behind pcscd + vpcd (docs/tags-and-readers.md §10): the reader personality does
// Load Keys / General Authenticate / READ BINARY / UPDATE BINARY; the CLI reads and writes NDEF
// through them. pcscd names vpcd's reader "Virtual PCD": nfctap's side is the generic profile
// (Load Keys with P1 00), which the ACR122U and Identiv personalities take.
extension PCSCSystemTests {
    @Suite("MIFARE Classic through pcscd and vpcd")
    struct MifareClassicPCSCTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let environment = ["LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""]

        func withCard(_ card: VirtualMifareClassic, profile: PCSCReaderProfile, _ body: (EmulatedPCSCReader) throws -> Void) throws {
            try TestPCSCD.withCard(card, profile: profile, body)
        }

        @Test("scan and write a Classic 1K: keys loaded once per key, one authentication per sector, blocks to the TLV's end",
              arguments: [PCSCReaderProfile.acr122u, .identiv])
        func scanAndWrite(_ profile: PCSCReaderProfile) throws {
            let message = try NDEFMessage(records: [.uri("https://example.com/classic")]).encoded()
            let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: message)
            try withCard(card, profile: profile) { reader in
                reader.plan.reset()
                let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(scan.status == 0, "\(scan.stderr)")
                let report = try ScanJSON.decode(scan.stdout)
                #expect(report.type == "mifareClassic" && report.uid == card.uid.hexString)
                #expect(report.records?.map(\.uri) == ["https://example.com/classic"])
                #expect(report.capacity == 716 && report.writable == true && report.product == "MIFARE Classic 1K")
                // The read's Classic commands: MAD key A, sector 0, blocks 1–3; NFC Forum key A,
                // sector 1, blocks 4–5 (the 30-byte TLV ends in block 5); the status: trailer 7.
                let classic = reader.plan.log.filter { $0.count > 1 && [0x82, 0x86, 0xB0].contains($0[1]) && $0[0] == 0xFF }
                #expect(classic.map { $0.prefix(4).hexString } == ["FF820000", "FF860000", "FFB00001", "FFB00002", "FFB00003",
                                                                  "FF820000", "FF860000", "FFB00004", "FFB00005", "FFB00007"],
                        "\(classic.map { $0.hexString(separator: " ") })")

                let write = try runCLI(["write", "--uri", "https://example.com/" + String(repeating: "w", count: 60), "--json",
                                        "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(write.status == 0, "\(write.stderr)")
                let written = try NDEFMessage(records: [.uri("https://example.com/" + String(repeating: "w", count: 60))]).encoded()
                #expect(try MifareClassicTag(link: VirtualMifareClassicLink(card), layout: .classic1K).readNDEF() == written)
            }
        }

        @Test("write --lock on a Classic 1K: AN1305's read-only trailers written with key B; read-only afterwards, message kept")
        func lock() throws {
            let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: try NDEFMessage(records: [.uri("https://a.b")]).encoded())
            try withCard(card, profile: .acr122u) { _ in
                let uri = "https://example.com/locked"
                let lock = try runCLI(["write", "--uri", uri, "--lock", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0],
                                      environment: Self.environment)
                #expect(lock.status == 0, "\(lock.stderr)")
                #expect(lock.stderr.contains("this is permanent"), "\(lock.stderr)")
                for sector in 1..<16 {
                    #expect(Array(card.block(sector * 4 + 3)[6...9]) == [0x07, 0x8F, 0x0F, 0x43], "sector \(sector)")
                }
                let scan = try ScanJSON.decode(try runCLI(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0],
                                                          environment: Self.environment).stdout)
                #expect(scan.writable == false && scan.records?.map(\.uri) == [uri])
                let again = try runCLI(["write", "--uri", "https://example.com/x", "--timeout", "20", "--reader", TestPCSCD.reader0],
                                       environment: Self.environment)
                #expect(again.status == 1 && again.stderr.contains("read-only"), "\(again.stderr)")
            }
        }

        @Test("a blank Classic is 'not NDEF formatted' (exit 0: its MAD is absent)")
        func blank() throws {
            try withCard(VirtualMifareClassic.blank(.classic1K), profile: .acr122u) { _ in
                let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(scan.status == 0, "\(scan.stderr)")
                let report = try ScanJSON.decode(scan.stdout)
                #expect(report.error?.contains("no MIFARE Application Directory") == true, "\(scan.stdout)")
                #expect(report.product == "MIFARE Classic 1K", "a badge without NDEF is still named")
            }
        }

        @Test("a write needing a sector no known key opens: exit 1 naming the sector, the old message kept")
        func unknownKey() throws {
            let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: try NDEFMessage(records: [.uri("https://a.b")]).encoded())
            var trailer = card.block(11)
            trailer.replaceSubrange(0..<6, with: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
            card.setBlock(11, trailer)
            // The message fits sector 1: a locked sector 2 is not read at all.
            try withCard(card, profile: .acr122u) { _ in
                let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(scan.status == 0, "\(scan.stderr)")
                let write = try runCLI(["write", "--uri", "https://example.com/" + String(repeating: "z", count: 60),
                                        "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(write.status == 1 && write.stderr.contains("sector 2"), "\(write.stderr)")
                #expect(try MifareClassicTag(link: VirtualMifareClassicLink(card), layout: .classic1K).readNDEF()
                        == (try NDEFMessage(records: [.uri("https://a.b")]).encoded()), "the old message stays")

                // With the sector's key in a dictionary file (`--keys`), the write goes through.
                let dir = try makeTemporaryDirectory()
                defer { try? FileManager.default.removeItem(at: dir) }
                let keys = dir.appendingPathComponent("keys.dic").path
                try "# a user's dictionary\n112233445566\n010203040506\n".write(toFile: keys, atomically: true, encoding: .utf8)
                let keyed = try runCLI(["write", "--uri", "https://example.com/" + String(repeating: "z", count: 60), "--keys", keys,
                                        "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(keyed.status == 0, "\(keyed.stderr)")
                // A file that is not a key dictionary is a usage error naming the line, never its text.
                try "FFFFFFFFFFFF\nmy-secret-key\n".write(toFile: keys, atomically: true, encoding: .utf8)
                let bad = try runCLI(["scan", "--keys", keys, "--timeout", "1"], environment: Self.environment)
                #expect(bad.status == 64 && bad.stderr.contains("line 2") && !bad.stderr.contains("my-secret"), "\(bad.stderr)")
            }
        }
    
        @Test("write on a blank Classic says to use --format and writes nothing; write --format makes it NDEF-ready and writes")
        func format() throws {
            let card = VirtualMifareClassic.blank(.classic1K)
            try withCard(card, profile: .acr122u) { _ in
                let uri = "https://example.com/formatted"
                let plain = try runCLI(["write", "--uri", uri, "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(plain.status == 1 && plain.stderr.contains("--format"), "\(plain.stderr)")
                #expect(card.writeCount == 0)
                let formatted = try runCLI(["write", "--format", "--uri", uri, "--json", "--timeout", "20", "--reader", TestPCSCD.reader0],
                                           environment: Self.environment)
                #expect(formatted.status == 0, "\(formatted.stderr)")
                #expect(try MifareClassicTag(link: VirtualMifareClassicLink(card), layout: .classic1K).readNDEF()
                        == (try NDEFMessage(records: [.uri(uri)]).encoded()))
                #expect(Array(card.block(3)[0...9]) == MifareClassicKey.mad + [0x78, 0x77, 0x88, 0xC1])
                #expect(Array(card.block(7)[6...15]) == [0x7F, 0x07, 0x88, 0x40] + MifareClassicKey.transport)
            }
        }
    
        @Test("readers names a Classic 1K/4K and lists its MAD: NDEF sectors, other applications; a badge without a MAD is 'no NDEF'")
        func readers() throws {
            let card = VirtualMifareClassic.ndefFormatted(.classic4K, message: [])
            // Sector 39 given to another application (a transit app's AID) in MAD2: entry 23 of 23.
            var mad2 = card.block(64) + card.block(65) + card.block(66)
            mad2.replaceSubrange(46 ..< 48, with: [0x48, 0x01])
            mad2[0] = MifareApplicationDirectory.crc(mad2[1...])
            for i in 0 ..< 3 { card.setBlock(64 + i, Array(mad2[i * 16 ..< (i + 1) * 16])) }
            try withCard(card, profile: .acr122u) { _ in
                let json = try runCLI(["readers", "--json", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(json.status == 0, "\(json.stderr)")
                let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
                let tag = try #require(entries.first?["tag"] as? [String: Any], "\(json.stdout)")
                #expect(tag["product"] as? String == "MIFARE Classic 4K")
                let classic = try #require(tag["mifareClassic"] as? [String: Any])
                #expect(classic["layout"] as? String == "4k" && classic["sectors"] as? Int == 40)
                let apps = try #require((classic["mad"] as? [String: Any])?["applications"] as? [[String: Any]])
                #expect(apps.map { $0["aid"] as? String } == ["03E1", "4801"])
                #expect(apps.last?["sectors"] as? [Int] == [39])
                #expect((apps.first?["sectors"] as? [Int])?.count == 37)
                let text = try runCLI(["readers", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(text.stdout.contains("MIFARE Classic 4K, NDEF in sectors 1–15, 17–38 (MAD: 4801 in sector 39)"), "\(text.stdout)")
            }
        }

        @Test("readers on a blank Classic 1K: 'MIFARE Classic 1K, no NDEF', mad null")
        func readersBlank() throws {
            try withCard(VirtualMifareClassic.blank(.classic1K), profile: .acr122u) { _ in
                let text = try runCLI(["readers", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(text.status == 0 && text.stdout.contains("MIFARE Classic 1K, no NDEF"), "\(text.stdout)")
                let json = try runCLI(["readers", "--json", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(json.stdout.contains(#""mad":null"#), "\(json.stdout)")
            }
        }
    
        /// A write through pcscd cut at each of its APDUs (the reader answers an error in place of
        /// the card, which never gets the command, as when the card is lifted): the card holds the
        /// old message, an empty one or the new one, never another (docs/tags-and-readers.md §1).
        @Test("a Classic write cut at any APDU through pcscd: old, empty or new message, never a corrupt one")
        func cutMidWrite() throws {
            let old = try NDEFMessage(records: [.uri("https://example.com/old")]).encoded()
            let new = try NDEFMessage(records: [.uri("https://example.com/" + String(repeating: "n", count: 90))]).encoded()
            let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: old)
            try withCard(card, profile: .acr122u) { reader in
                // The APDUs of a whole write (the session's first read included), then a removal at each.
                reader.plan.reset()
                let whole = try runCLI(["write", "--uri", "https://example.com/" + String(repeating: "n", count: 90), "--timeout", "3",
                                        "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(whole.status == 0, "\(whole.stderr)")
                let total = reader.plan.log.count
                var outcomes: Set<String> = []
                for apdus in 0 ..< total {
                    for (i, block) in VirtualMifareClassic.ndefFormatted(.classic1K, message: old).blocks.enumerated() { card.setBlock(i, block) }
                    reader.plan.reset(faults: [apdus: .statusWord(0x64, 0x00)])
                    let write = try runCLI(["write", "--uri", "https://example.com/" + String(repeating: "n", count: 90), "--timeout", "3",
                                            "--reader", TestPCSCD.reader0], environment: Self.environment)
                    reader.plan.reset()
                    card.activate()
                    let left = try MifareClassicTag(link: VirtualMifareClassicLink(card), layout: .classic1K).readNDEF()
                    #expect(left == old || left == [] || left == new, "removed after \(apdus) APDUs: \(left.hexString)")
                    if write.status == 0 { #expect(left == new) }
                    outcomes.insert(left == old ? "old" : left == new ? "new" : "empty")
                }
                #expect(outcomes.contains("old") && outcomes.contains("empty"), "\(outcomes) of \(total) APDUs")
            }
        }
    }
}
