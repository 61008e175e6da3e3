import Foundation
import NFCTags
import NFCTapKitTestSupport
import TagEmulation
import Testing

// Ring 3, issue 28: ISO 15693 (NFC Forum Type 5) tags through pcscd + vpcd, the CLI run as users
// run it. pcscd names vpcd's reader `Virtual PCD`, so nfctap's side is the generic profile: it
// tries the PC/SC Part 3 transparent exchange first; the emulated personality behind vpcd decides
// whether it is there (OMNIKEY 5022-like, SpringCard, Identiv, ACR1552) or refused (generic: READ /
// UPDATE BINARY fallback).
extension PCSCSystemTests {
    @Suite("ISO 15693 (Type 5) tags through pcscd")
    struct Type5PCSCTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let uriMessage: [UInt8] = [0xD1, 0x01, 0x06, 0x55, 0x04, 0x61, 0x2E, 0x63, 0x6F, 0x6D]

        static func slix2(serial: UInt8) -> VirtualISO15693Tag {
            .formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2, serial: serial), message: uriMessage)
        }

        static func read(_ virtual: VirtualISO15693Tag) throws -> [UInt8] {
            try Type5Tag(link: VirtualISO15693Link(virtual)).readNDEF()
        }

        @Test("scan, write, write --lock on every ISO 15693 reader personality",
              arguments: [PCSCReaderProfile.omnikey, .springcard, .identiv, .acr1252u, .generic])
        func scanWriteLock(_ profile: PCSCReaderProfile) throws {
            let virtual = Self.slix2(serial: 0x50)
            let reader = EmulatedPCSCReader(profile: profile, tag: virtual)
            let onReader = try TagOnReader(virtual, personality: reader)
            defer { onReader.remove() }

            let scan = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(scan.status == 0, "\(scan.stderr)")
            // GET DATA, then the read at its minimum (docs/tags-and-readers.md §7.7): session start +
            // switch, System Info, CC, one Read Multiple, session end; a reader refusing FF C2: the
            // refused start, then READ BINARY block by block.
            let scanAPDUs = reader.plan.log
            #expect(scanAPDUs.count == (profile == .generic ? 6 : 7), "\(scanAPDUs.map { $0.hexString(separator: " ") })")
            let report = try ScanJSON.decode(scan.stdout)
            #expect(report.records?.map(\.uri) == ["https://a.com"])
            #expect(report.uid == virtual.uid.hexString && report.type == "type5")
            #expect(report.product == "ICODE SLIX2" && report.capacity == 312 && report.writable == true)

            let write = try runCLI(["write", "--uri", ScanVectors.uri, "--json", "--timeout", "20"])
            #expect(write.status == 0, "\(write.stderr)")
            #expect(try Self.read(virtual) == ScanVectors.uriMessage)

            if profile == .generic {
                // READ / UPDATE BINARY cannot pass Lock Block: known before writing, so said so
                // with nothing written (the tag keeps its message) and nothing locked.
                let lock = try runCLI(["write", "--uri", "https://example.com/other", "--lock", "--timeout", "20"])
                #expect(lock.status == 1)
                #expect(lock.stderr.contains("Lock Block") && lock.stderr.contains("nothing was written"), "\(lock.stderr)")
                #expect(virtual.lockedBlocks.isEmpty)
                #expect(try Self.read(virtual) == ScanVectors.uriMessage)
            } else {
                let lock = try runCLI(["write", "--uri", ScanVectors.uri, "--lock", "--timeout", "20"])
                #expect(lock.status == 0, "\(lock.stderr)")
                #expect(virtual.lockedBlocks.count == 80 && virtual.memory[1] == 0x43)
                let after = try ScanJSON.decode(try runCLI(["scan", "--json", "--timeout", "20"]).stdout)
                #expect(after.writable == false)
            }
        }

        @Test("ST25DV04K and Tag-it HF-I Plus: scan, write, write --lock on every ISO 15693 reader personality",
              arguments: [ISO15693ChipModel.st25dv04k, .tagItHFIPlus],
              [PCSCReaderProfile.omnikey, .springcard, .identiv, .acr1252u, .generic])
        func otherChips(_ model: ISO15693ChipModel, _ profile: PCSCReaderProfile) throws {
            let virtual = VirtualISO15693Tag.formatted(model, uid: VirtualISO15693Tag.exampleUID(model, serial: 0x52), message: Self.uriMessage)
            let onReader = try TagOnReader(virtual, personality: EmulatedPCSCReader(profile: profile, tag: virtual))
            defer { onReader.remove() }

            let scan = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(scan.status == 0, "\(scan.stderr)")
            let report = try ScanJSON.decode(scan.stdout)
            #expect(report.records?.map(\.uri) == ["https://a.com"])
            #expect(report.uid == virtual.uid.hexString && report.product == model.name && report.writable == true, "\(report)")

            let write = try runCLI(["write", "--uri", ScanVectors.uri, "--timeout", "20"])
            #expect(write.status == 0, "\(write.stderr)")
            #expect(try Self.read(virtual) == ScanVectors.uriMessage)

            let lock = try runCLI(["write", "--uri", ScanVectors.uri, "--lock", "--timeout", "20"])
            if profile == .generic {
                #expect(lock.status != 0 && lock.stderr.contains("Lock Block"), "\(lock.stderr)")
                #expect(virtual.lockedBlocks.isEmpty)
            } else {
                #expect(lock.status == 0, "\(lock.stderr)")
                #expect(virtual.lockedBlocks.count == model.blockCount && virtual.memory[1] & 0x03 == 0x03)
            }
        }

        @Test("write formats a blank ST25DV04K, and refuses to format the Flipper SLIX2 dump")
        func formatBlankTagsOnly() throws {
            let blank = VirtualISO15693Tag(model: .st25dv04k, uid: VirtualISO15693Tag.exampleUID(.st25dv04k))
            let onReader = try TagOnReader(blank, personality: EmulatedPCSCReader(profile: .omnikey, tag: blank))
            let write = try runCLI(["write", "--uri", ScanVectors.uri, "--timeout", "20"])
            onReader.remove()
            #expect(write.status == 0, "\(write.stderr)")
            #expect(Array(blank.memory[0 ..< 4]) == [0xE1, 0x40, 0x40, 0x00])
            #expect(try Self.read(blank) == ScanVectors.uriMessage)
            try TestPCSCD.waitUntilReadersAreEmpty()

            let dump = VirtualISO15693Tag.flipperSLIX2Dump()
            let library = try TagOnReader(dump, personality: EmulatedPCSCReader(profile: .omnikey, tag: dump))
            defer { library.remove() }
            let scanRun = try runCLI(["scan", "--json", "--timeout", "20"])
            let scan = try ScanJSON.decode(scanRun.stdout)
            #expect(scanRun.stdout.contains(#""iso15693":{"manufacturerCode":4,"manufacturer":"NXP Semiconductors","blockSize":4,"blockCount":80,"icReference":1,"dsfid":1,"afi":61}"#), "\(scanRun.stdout)")
            #expect(scan.uid == "E004010849D0DC81" && scan.product == "ICODE SLIX2" && scan.records == nil, "\(scan)")
            let refused = try runCLI(["write", "--uri", ScanVectors.uri, "--timeout", "20"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("not NDEF formatted"), "\(refused.stderr)")
            #expect(dump.memory == VirtualISO15693Tag.flipperSLIX2Memory)
        }

        @Test("inventory records the ISO 15693 UID as the asset number on every reader personality",
              arguments: [PCSCReaderProfile.omnikey, .springcard, .identiv, .acr1252u, .generic])
        func inventory(_ profile: PCSCReaderProfile) throws {
            let dir = try TemporaryDirectory()
            let path = dir.path("assets.csv")
            let cli = try LiveCLI(["inventory", "--output", path])
            cli.waitFor("Inventory: tap tags")
            let virtual = Self.slix2(serial: 0x77)
            let card = try TagOnReader(virtual, personality: EmulatedPCSCReader(profile: profile, tag: virtual))
            cli.waitFor("✓ #1 ")
            card.remove()
            cli.signal(SIGTERM)
            #expect(cli.finish() == 0)
            let rows = parseCSV(try String(contentsOfFile: path, encoding: .utf8))
            #expect(rows.dropFirst().map { $0[2] } == ["E004010812345677"])
            try TestPCSCD.waitUntilReaderIsEmpty(TestPCSCD.reader0)
        }
    }
}
