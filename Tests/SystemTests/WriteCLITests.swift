import Foundation
import NDEF
import NFCTags
import TagEmulation
import Testing

// Ring 3: `nfctap write` through pcscd + vpcd; the virtual tag's memory is checked byte by byte.
extension PCSCSystemTests {
    @Suite("nfctap write through pcscd")
    struct WriteCLITests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        @Test(arguments: TagModel.all)
        func writeStoresTheExactBytesAndScanReadsThemBack(_ model: TagModel) throws {
            let tag = try TagOnReader(model.make())
            defer { tag.remove() }
            let result = try runCLI(["write", "--uri", ScanVectors.uri, "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONDecoder().decode(WriteJSON.self, from: Data(result.stdout.utf8))
            #expect(report == WriteJSON(written: ScanVectors.uriMessage.count, capacity: model.capacity, locked: false,
                                        uid: model.uid.hexString, type: model.type, reader: ScanVectors.reader0))

            let expected = model.expectedStorage(for: ScanVectors.uriMessage)
            #expect(TagModel.storage(of: tag.tag, count: expected.count).hexString == expected.hexString)

            let scan = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(scan.status == 0, "\(scan.stderr)")
            let read = try ScanJSON.decode(scan.stdout)
            #expect(read.records?.map(\.uri) == [ScanVectors.uri])
            #expect(read.writable == true)
        }

        /// `--ha-tag` writes Home Assistant's tag URL (a new UUID without an id), and a scan of the
        /// tag then reports that id as `haTag` beside the UID, the id HA's apps and ESPHome report.
        @Test func homeAssistantTag() throws {
            let tag = try TagOnReader(VirtualType2Tag.blankNTAG215(uid: ScanVectors.uid(0x32)))
            defer { tag.remove() }
            let fresh = try runCLI(["write", "--ha-tag", "--json", "--timeout", "20"])
            #expect(fresh.status == 0, "\(fresh.stderr)")
            let written = try #require(try JSONSerialization.jsonObject(with: Data(fresh.stdout.utf8)) as? [String: Any])
            let id = try #require(written["haTag"] as? String, "\(fresh.stdout)")
            #expect(UUID(uuidString: id) != nil && id == id.lowercased(), "a random UUID, as HA's apps write: \(id)")
            let scan = try runCLI(["scan", "--json", "--timeout", "20"])
            let read = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
            #expect(read["haTag"] as? String == id && read["uid"] as? String == ScanVectors.uid(0x32).hexString, "\(scan.stdout)")

            let chosen = try runCLI(["write", "--ha-tag", "kitchen_door", "--timeout", "20"])
            #expect(chosen.status == 0, "\(chosen.stderr)")
            #expect(chosen.stdout.contains("https://www.home-assistant.io/tag/kitchen_door"), "\(chosen.stdout)")
            let bad = try runCLI(["write", "--ha-tag", "a/b", "--timeout", "20"])
            #expect(bad.status == 64 && bad.stderr.contains("--ha-tag"), "\(bad.stderr)")
        }

        @Test func textWithLanguage() throws {
            let tag = try TagOnReader(VirtualType2Tag.blankNTAG215(uid: ScanVectors.uid(0x31)), reader: 1)
            defer { tag.remove() }
            let result = try runCLI(["write", "--text", "hej", "--lang", "sv", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Wrote 10 bytes (1: Text [sv] \"hej\") to UID 04:10:20:30:40:50:31 on Virtual PCD 00 01, capacity 492 bytes\n")
            let t2 = try #require(tag.tag as? VirtualType2Tag)
            #expect(Array(t2.memory[16 ..< 29]) == [0x03, 0x0A] + ScanVectors.textMessage + [0xFE])
        }

        @Test func mimeFromAFileAndAWholeNDEFFile() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-write-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let content = dir.appendingPathComponent("hello.json")
            try Data(#"{"a":1}"#.utf8).write(to: content)
            let tag = try TagOnReader(VirtualType4Tag(version: .v2, maxSize: 2048))
            defer { tag.remove() }
            let t4 = try #require(tag.tag as? VirtualType4Tag)

            let mime = try runCLI(["write", "--mime", "application/json", "--file", content.path, "--timeout", "20"])
            #expect(mime.status == 0, "\(mime.stderr)")
            // MB ME SR TNF 2, type length 16, payload 7: "application/json" then {"a":1}.
            let mimeMessage = [0xD2, 0x10, 0x07] + Array("application/json".utf8) + Array(#"{"a":1}"#.utf8)
            #expect(t4.ndefMessage == mimeMessage)

            // Two records: URI then Text, as a file holds them.
            let twoRecords = [UInt8](hex: "91 01 0D 55 04 6E 66 63 74 61 70 2E 64 65 76 2F 77 51 01 06 54 02 73 76 68 65 6A")!
            let file = dir.appendingPathComponent("message.ndef")
            try Data(twoRecords).write(to: file)
            let whole = try runCLI(["write", "--ndef-file", file.path, "--json", "--timeout", "20"])
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(Array(t4.ndefFile.prefix(2 + twoRecords.count)) == [0x00, UInt8(twoRecords.count)] + twoRecords)
        }

        @Test func lockMakesType2ReadOnlyForGood() throws {
            let tag = try TagOnReader(VirtualType2Tag.blankNTAG213(uid: ScanVectors.uid(0x41)))
            defer { tag.remove() }
            let t2 = try #require(tag.tag as? VirtualType2Tag)
            let result = try runCLI(["write", "--uri", ScanVectors.uri, "--lock", "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("permanent"), "warned before locking: \(result.stderr)")
            #expect(try JSONDecoder().decode(WriteJSON.self, from: Data(result.stdout.utf8)).locked)
            // CC write access F (read-only), static lock bytes all set (specs §1).
            #expect(t2.memory[15] == 0x0F)
            #expect(t2.memory[10 ..< 12] == [0xFF, 0xFF])

            let scan = try runCLI(["scan", "--json", "--timeout", "20"])
            let read = try ScanJSON.decode(scan.stdout)
            #expect(read.writable == false)
            #expect(read.records?.map(\.uri) == [ScanVectors.uri])

            let before = t2.memory
            let again = try runCLI(["write", "--uri", "https://other.example", "--timeout", "20"])
            #expect(again.status == 1)
            #expect(again.stderr.contains("nfctap: error: the tag is read-only"), "\(again.stderr)")
            #expect(t2.memory == before)
        }

        @Test func lockMakesType4ReadOnly() throws {
            let tag = try TagOnReader(VirtualType4Tag(version: .v3, maxSize: 2048))
            defer { tag.remove() }
            let t4 = try #require(tag.tag as? VirtualType4Tag)
            let result = try runCLI(["write", "--text", "hej", "--lang", "sv", "--lock", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("; the tag is now read-only\n"))
            #expect(t4.ccFile[16] == 0xFF, "v3 CC: write access is the last byte")
            #expect(t4.ndefMessage == ScanVectors.textMessage)
            let again = try runCLI(["write", "--text", "x", "--timeout", "20"])
            #expect(again.status == 1)
            #expect(t4.ndefMessage == ScanVectors.textMessage)
        }

        @Test func messageTooLargeSaysBothSizes() throws {
            let tag = try TagOnReader(VirtualType2Tag.blankNTAG213(uid: ScanVectors.uid(0x51)))
            defer { tag.remove() }
            let t2 = try #require(tag.tag as? VirtualType2Tag)
            let before = t2.memory
            // A 200-character text record: 3 header + 1 type + 1 status + 2 language + 200 = 207 bytes.
            let result = try runCLI(["write", "--text", String(repeating: "a", count: 200), "--timeout", "20"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("the message of 207 bytes does not fit: the tag holds 137 bytes"), "\(result.stderr)")
            #expect(t2.memory == before)
        }

        @Test func unformattedTagIsRefused() throws {
            let tag = try TagOnReader(VirtualType2Tag(product: .ultralightEV1MF0UL21, uid: ScanVectors.uid(0x61)))
            defer { tag.remove() }
            let t2 = try #require(tag.tag as? VirtualType2Tag)
            let before = t2.memory
            let result = try runCLI(["write", "--uri", ScanVectors.uri, "--timeout", "20"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("not NDEF formatted"), "\(result.stderr)")
            #expect(t2.memory == before)
        }

        /// Tear-safe (specs §1: length 0 first, then the message, then the length): the tag leaves
        /// before the (k+1)-th page write. Torn before any write, it keeps the old message; torn
        /// after the first, it holds an empty one; never anything else. The CLI says so, exit 1.
        @Test(arguments: 0 ..< 7)
        func tornType2WriteLeavesOldOrEmpty(_ writesAllowed: Int) throws {
            let old = ScanVectors.uriMessage, new = ScanVectors.textMessage
            let t2 = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xC0), ndef: old)
            let card = VPCDCard(behaviour: TearingReader(tag: t2, writesAllowed: writesAllowed), port: TestPCSCD.port0)
            try card.insert()
            defer { card.stop() }
            let result = try runCLI(["write", "--text", "hej", "--lang", "sv", "--timeout", "20"])
            // NTAG213: Lock Control TLV at 16-20, then the NDEF TLV: 03 length message.
            let memory = t2.memory
            #expect(memory[21] == 0x03)
            let stored = Array(memory[23 ..< 23 + Int(memory[22])])
            if card.isInserted {
                // Enough writes allowed: the write completed.
                #expect(writesAllowed > 0)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(stored == new)
            } else {
                #expect(result.status == 1)
                // vpcd turns a card that stops answering into an empty reply (401) rather than a
                // removal (100); both say what the tag holds.
                #expect(result.stderr.contains("previous message or an empty one, never a corrupt one"), "\(result.stderr)")
                #expect(stored == (writesAllowed == 0 ? old : []), "torn after \(writesAllowed) writes: \(stored.hexString)")
            }
        }

        @Test func ctrlCEndsAWaitingWriteWith130() throws {
            let cli = try CLIProcess(["write", "--uri", ScanVectors.uri, "--timeout", "0"])
            cli.waitForStderr("to write 17 bytes")
            cli.interrupt()
            let result = cli.finish()
            #expect(result.status == 130)
            #expect(result.stderr.contains("nfctap: error: interrupted"), "\(result.stderr)")
        }

        @Test func badOptionsAreUsageErrorsBeforeWaiting() throws {
            // --timeout 0 would wait for ever: these must fail before the session starts.
            for args in [["write", "--timeout", "0"],
                         ["write", "--uri", "a", "--text", "b", "--timeout", "0"],
                         ["write", "--text", "b", "--mime", "text/plain", "--timeout", "0"],
                         ["write", "--uri", "a", "--lang", "sv", "--timeout", "0"],
                         ["write", "--mime", "text/plain", "--timeout", "0"]] {
                let result = try runCLI(args, timeout: 20)
                #expect(result.status == 64, "\(args): \(result.stderr)")
            }
            let missing = try runCLI(["write", "--ndef-file", "/nonexistent/file", "--timeout", "0"], timeout: 20)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("cannot read /nonexistent/file"))
            let badMime = try runCLI(["write", "--mime", "no-slash", "--file", "/dev/null", "--timeout", "0"], timeout: 20)
            #expect(badMime.status == 1)
            #expect(badMime.stderr.contains("cannot encode a MIME record"), "\(badMime.stderr)")
        }

        @Test func noTagBeforeTheTimeoutExits2() throws {
            let result = try runCLI(["write", "--uri", ScanVectors.uri, "--timeout", "1"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("no tag was presented within 1 s"))
        }
    }
}
