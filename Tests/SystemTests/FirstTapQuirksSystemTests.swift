import Foundation
import NFCTags
import TagEmulation
import Testing

// Ring 3, issue 23 item 5: the first-tap mismatches of public reader traces, through a real pcscd
// + vpcd with the emulated reader personality behind it (docs/tags-and-readers.md §3). vpcd's
// reader is renamed where nfctap chooses its path by the reader's name.
extension PCSCSystemTests {
    @Suite("first-tap quirks through pcscd")
    struct FirstTapQuirksSystemTests {
        typealias Quirks = ACR122UByFirmwareSystemTests

        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let start: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00]

        /// Runs `body` with vpcd's reader named `name`, then names it back.
        static func named(_ name: String, _ body: () throws -> Void) throws {
            try Quirks.renameVPCD(to: name)
            defer {
                try? Quirks.renameVPCD(to: "Virtual PCD")
                try? TestPCSCD.waitUntilReadersAreEmpty()
            }
            try body()
        }

        @Test func aRefusedTransparentStartFallsBackToPageReads() throws {
            let omnikey = "HID Global OMNIKEY 5022 Smart Card Reader"
            try Self.named(omnikey) {
                for (n, sw) in [[UInt8(0x63), 0x00], [0x6A, 0x81], [0x6D, 0x00]].enumerated() {
                    let tag = try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0xD0 + UInt8(n)), ndef: ScanVectors.uriMessage)
                    let reader = EmulatedPCSCReader(profile: .omnikey, tag: tag)
                    reader.refusesTransparentExchange = true
                    reader.transparentRefusal = sw
                    let onReader = try TagOnReader(tag, personality: reader)
                    defer { onReader.remove() }
                    let result = try runCLI(["scan", "--json", "--timeout", "20"])
                    #expect(result.status == 0, "\(sw.hexString): \(result.stderr)")
                    let report = try ScanJSON.decode(result.stdout)
                    #expect(report.error == nil, "\(report)")
                    #expect(report.records?.map(\.uri) == [ScanVectors.uri])
                    let log = reader.plan.log
                    #expect(log.filter { $0 == Self.start }.count == 1, "asked once: \(log)")
                    #expect(log.drop { $0 != Self.start }.dropFirst().allSatisfy { $0.starts(with: [0xFF, 0xB0]) },
                            "page reads after the refusal: \(log)")
                    onReader.remove()
                    try TestPCSCD.waitUntilReaderIsEmpty("\(omnikey) 00 00")
                }
            }
        }

        @Test func aWriteAnswered6300ThatLandedLeavesTheWholeMessage() throws {
            let old = try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0xD4), ndef: [0xD1, 0x01, 0x01, 0x54, 0x00])
            let reader = EmulatedPCSCReader(profile: .acr122u, tag: old)
            reader.misreportedWrites = 1  // the first WRITE (the length byte set to 00) lands, answered 63 00
            let onReader = try TagOnReader(old, personality: reader)
            defer { onReader.remove() }
            let result = try runCLI(["write", "--uri", ScanVectors.uri, "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let log = reader.plan.log
            let first = try #require(log.firstIndex { $0.starts(with: [0xFF, 0xD6]) })
            #expect(log[first + 1] == [0xFF, 0xB0, 0x00, log[first][3], 0x10], "read back before deciding")
            #expect(reader.misreportedWrites == 0)
            let scan = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(try ScanJSON.decode(scan.stdout).records?.map(\.uri) == [ScanVectors.uri])
        }

        @Test func anLEDCommandThatNeverAnswersDoesNotHoldTheRead() throws {
            try Self.named(Quirks.acsName) {
                let tag = try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0xD5), ndef: ScanVectors.uriMessage)
                let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
                reader.ledCommandNeverAnswers = true  // ACR122U firmware 215
                let onReader = try TagOnReader(tag, personality: reader)
                defer {
                    reader.plan.releaseStalls()
                    onReader.remove()
                }
                let result = try runCLI(["scan", "--json", "--timeout", "20"])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(try ScanJSON.decode(result.stdout).records?.map(\.uri) == [ScanVectors.uri])
                // nfctap ended while the LED command was still unanswered: it did not wait for it.
                #expect(reader.plan.stalledExchanges == 1)
                let log = reader.plan.log
                #expect(log.filter { $0.count == 9 && $0[2] == 0x40 }.count == 1)
                #expect(!log.contains([0xFF, 0x00, 0x52, 0xFF, 0x00]), "no restore queued behind the stuck command")
            }
        }

        @Test func aReaderThatLeftFeedbackUnansweredGetsNoMoreForTheRestOfTheProcess() throws {
            try Self.named(Quirks.acsName) {
                let cli = try CLIProcess(["scan", "--multi", "--json", "--timeout", "0"])
                cli.waitForStderr("Hold a tag near")
                let firstTag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xD6), ndef: ScanVectors.uriMessage)
                let first = EmulatedPCSCReader(profile: .acr122u, tag: firstTag)
                first.ledCommandNeverAnswers = true
                var onReader: TagOnReader? = try TagOnReader(firstTag, personality: first)
                cli.waitForLines(1)
                // The JSON line is written before the tap is confirmed on the reader: wait for the
                // LED command to arrive, then past nfctap's bound (1.5 s) before the reader gives up
                // on it at last (libccid's timeout on a real one). A wait, not a measurement.
                for _ in 0 ..< 600 where first.plan.stalledExchanges == 0 { usleep(50_000) }
                #expect(first.plan.stalledExchanges == 1)
                usleep(3_000_000)
                first.plan.releaseStalls()
                onReader?.remove()
                onReader = nil
                try TestPCSCD.waitUntilReaderIsEmpty("\(Quirks.acsName) 00 00")

                let secondTag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xD7), ndef: ScanVectors.uriMessage)
                let second = EmulatedPCSCReader(profile: .acr122u, tag: secondTag)
                second.ledCommandNeverAnswers = true
                let again = try TagOnReader(secondTag, personality: second)
                defer {
                    second.plan.releaseStalls()
                    again.remove()
                }
                let lines = cli.waitForLines(2)
                cli.interrupt()
                #expect(cli.finish().status == 0)
                #expect(lines.count == 2)
                // Remembered for that reader: the second tap is read with no feedback at all, and
                // the firmware was asked once per process.
                #expect(second.plan.stalledExchanges == 0)
                #expect(!second.plan.log.contains { $0.count == 9 && $0[2] == 0x40 }, "\(second.plan.log)")
                #expect(!second.plan.log.contains([0xFF, 0x00, 0x48, 0x00, 0x00]))
                #expect(second.plan.log.contains { $0.starts(with: [0xFF, 0x00, 0x00, 0x00]) }, "still an ACR122U: raw frames by direct transmit")
            }
        }

        /// The raw commands an iOS NTAG215 reader sends through `sendMiFareCommand`, run by the
        /// ported plugin example against each reader personality behind `Virtual PCD` (a name
        /// nfctap does not know: the transparent exchange is tried when the app asks).
        @Test(arguments: [PCSCReaderProfile.acr1252u, .identiv, .omnikey, .springcard, .acr122u, .generic])
        func rawType2CommandsThroughAReaderNfctapDoesNotKnowByName(personality: PCSCReaderProfile) throws {
            let tag = try VirtualType2Tag(product: .ntag215, uid: VirtualType2Tag.defaultUID, ndef: ScanVectors.uriMessage)
            let example = try ExampleProcess("TagInfoPluginExample", [
                "--call", "MiFare#sendMiFareCommand commandPacket=x:60",
                "--call", "MiFare#sendMiFareCommand commandPacket=x:3A040F",
                "--call", "MiFare#sendMiFareCommand commandPacket=x:1BFFFFFFFF",
            ])
            example.waitUntilActive()
            let reader = EmulatedPCSCReader(profile: personality, tag: tag)
            let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
            try card.insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let lines = example.stdout.split(separator: "\n").filter { $0.hasPrefix("MiFare#sendMiFareCommand: ") }
            #expect(lines.count == 3, "\(example.stdout)")
            let hex = { (bytes: [UInt8]) in "\"" + bytes.map { String(format: "%02X", $0) }.joined() + "\"" }
            if personality.supportsTransparentExchange {
                #expect(lines.first?.hasSuffix(hex(Type2Product.ntag215.versionBytes ?? [])) == true, "\(lines)")
                #expect(lines[1].hasSuffix(hex(Array(tag.memory[16 ..< 64]))), "\(lines)")
                #expect(lines[2].hasSuffix(hex([0x00, 0x00])), "PWD_AUTH → PACK: \(lines)")
                #expect(!reader.isTransparentSessionOpen)
            } else {
                // Refused once (6D 00), then known: error 1 for each, and one FF C2 only.
                #expect(lines.allSatisfy { $0.contains("io_exception") }, "\(lines)")
                #expect(reader.plan.log.filter { $0.starts(with: [0xFF, 0xC2]) } == [Self.start])
            }
        }
    }
}
