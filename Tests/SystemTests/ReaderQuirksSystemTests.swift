import Foundation
import NFCTags
import TagEmulation
import Testing

// Ring 3, issue 18: reader quirks through a real pcscd + vpcd, the emulated personality behind
// vpcd (pcscd names it `Virtual PCD`, so nfctap's side is the generic profile: what a reader it
// does not recognise by name gets).
extension PCSCSystemTests {
    @Suite("reader quirks through pcscd")
    struct ReaderQuirksSystemTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        /// A tag whose CC claims `ccSize` and whose NDEF TLV says `length` bytes, the user memory
        /// filled with a counting pattern.
        static func overstatedTag(_ product: Type2Product, uid: [UInt8], ccSize: UInt8, length: Int,
                                  value: [UInt8] = []) throws -> VirtualType2Tag {
            var memory = try VirtualType2Tag(product: product, uid: uid).memory
            memory[12 ..< 16] = [0xE1, 0x10, ccSize, 0x00]
            memory[16 ..< 20] = [0x03, 0xFF, UInt8(length >> 8), UInt8(length & 0xFF)]
            for i in 20 ..< 16 + (product.userMemorySize ?? 0) { memory[i] = UInt8(truncatingIfNeeded: i) }
            memory.replaceSubrange(20 ..< 20 + value.count, with: value)
            return try VirtualType2Tag(product: product, memory: memory)
        }

        /// A Text record "hej!!" in `en`: 12 bytes.
        static let text: [UInt8] = [0xD1, 0x01, 0x08, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x65, 0x6A, 0x21, 0x21]

        @Test func acr122uLockUpIsRecoveredByReconnectingAndTheErrorNamesThePage() throws {
            // An Ultralight C whose CC overstates its memory and whose TLV runs past its end: the
            // ACR122U personality answers 63 00 and then refuses every READ BINARY until reset.
            let tag = try Self.overstatedTag(.ultralightC, uid: ScanVectors.uid(0xC1), ccSize: 0x3E, length: 400)
            let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
            let onReader = try TagOnReader(tag, personality: reader)
            defer { onReader.remove() }
            // `scan` names the refused page and waits for the tag to be presented again (then, with
            // nothing else presented, ends at the timeout: exit 2).
            let result = try runCLI(["scan", "--json", "--timeout", "3"])
            #expect(result.stderr.contains("the reader refused to read page 47 (63 00"), "\(result.stderr)")
            #expect(result.status == 2)
            // SCardReconnect reset the card through pcscd and vpcd: the reader is usable again.
            #expect(!reader.isLockedUp)
            #expect(reader.plan.log.contains([0xFF, 0xB0, 0x00, 0x2F, 0x04]), "the page was retried alone")
        }

        @Test func aShortMessageUnderAnOverstatedCCIsReadAndTheProductIsOnlyAGuess() throws {
            let tag = try Self.overstatedTag(.ultralightC, uid: ScanVectors.uid(0xC2), ccSize: 0x3E, length: 12, value: Self.text)
            let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
            let onReader = try TagOnReader(tag, personality: reader)
            defer { onReader.remove() }
            let json = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(json.status == 0, "\(json.stderr)")
            let report = try ScanJSON.decode(json.stdout)
            #expect(report.error == nil, "\(report)")
            #expect(report.records?.first?.text == "hej!!")
            #expect(report.product == nil)
            #expect(report.productGuess == "NTAG215")
            #expect(!reader.isLockedUp)
            #expect(!reader.plan.log.contains { $0.count == 5 && $0[1] == 0xB0 && $0[3] >= 0x2C }, "nothing read past the chip")
            let human = try runCLI(["scan", "--timeout", "20"])
            #expect(human.stdout.contains("NTAG215-sized (from CC) UID"), "\(human.stdout)")
        }

        @Test(arguments: [[UInt8(0x6B), 0x00], [0x6A, 0x82]])
        func aReaderRefusingReadsPastTheEndStillReadsAFullUltralight(sw: [UInt8]) throws {
            let message = [UInt8]([0xD1, 0x01, 0x2A, 0x54, 0x02, 0x65, 0x6E]) + [UInt8](repeating: 0x61, count: 39)
            let tag = try VirtualType2Tag(product: .ultralight, uid: ScanVectors.uid(0xC3), ndef: message)
            let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
            reader.refusesReadsPastMemoryEnd = sw
            let onReader = try TagOnReader(tag, personality: reader)
            defer { onReader.remove() }
            let result = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try ScanJSON.decode(result.stdout)
            #expect(report.error == nil, "\(report)")
            #expect(report.records?.first?.text == String(repeating: "a", count: 39))
            #expect(reader.plan.log.contains([0xFF, 0xB0, 0x00, 0x0F, 0x04]))
        }
    }
}

// An early ACR122U as libnfc knows it: pcscd names it "ACS ACR 38U-CCID". The test pcscd's vpcd
// reader is renamed so for one test (the FRIENDLYNAME of its private reader.conf.d), then restored.
extension PCSCSystemTests {
    @Suite("an ACR122U named ACS ACR 38U-CCID, through pcscd")
    struct ACR122UByFirmwareSystemTests {
        static let acsName = "ACS ACR 38U-CCID"

        static func renameVPCD(to name: String) throws {
            let dir = try #require(SystemEnvironment.environment["NFCTAP_PCSCD_DIR"])
            let conf = URL(fileURLWithPath: dir).appendingPathComponent("reader.conf.d/vpcd")
            let text = try String(contentsOf: conf, encoding: .utf8)
            let renamed = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasPrefix("FRIENDLYNAME") ? "FRIENDLYNAME \"\(name)\"" : String($0)
            }.joined(separator: "\n")
            try renamed.write(to: conf, atomically: true, encoding: .utf8)
            try TestPCSCD.control("restart")
        }

        @Test func identifiedByFirmwareRawCommandsAndBuzzerRestoredAtExit() throws {
            try Self.renameVPCD(to: Self.acsName)
            defer {
                try? Self.renameVPCD(to: "Virtual PCD")
                try? TestPCSCD.waitUntilReadersAreEmpty()
            }
            let tag = try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0xC5), ndef: ScanVectors.uriMessage)
            let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
            let onReader = try TagOnReader(tag, personality: reader)
            defer { onReader.remove() }

            let result = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try ScanJSON.decode(result.stdout)
            #expect(report.reader == "\(Self.acsName) 00 00")
            // Confirmed an ACR122U by its firmware string: GET_VERSION passed, the chip is named for real.
            #expect(report.product == "NTAG215")
            #expect(report.productGuess == nil)
            let log = reader.plan.log
            let firmware = try #require(log.firstIndex(of: [0xFF, 0x00, 0x48, 0x00, 0x00]))
            let version = try #require(log.firstIndex(of: [0xFF, 0x00, 0x00, 0x00, 0x03, 0xD4, 0x42, 0x60]))
            #expect(firmware < version)
            #expect(log.filter { $0 == [0xFF, 0x00, 0x48, 0x00, 0x00] }.count == 1, "asked once")
            // Feedback: the automatic beep off, then nfctap's own LED + beep; back on at exit.
            let off = try #require(log.firstIndex(of: [0xFF, 0x00, 0x52, 0x00, 0x00]))
            let beep = try #require(log.firstIndex { $0.count == 9 && $0[2] == 0x40 })
            #expect(off < beep)
            #expect(log.last == [0xFF, 0x00, 0x52, 0xFF, 0x00], "restored at exit")
            #expect(reader.buzzerOnDetection)
        }
    }
}
