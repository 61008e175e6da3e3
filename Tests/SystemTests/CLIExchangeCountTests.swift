import Foundation
import NDEF
import NFCTags
import PCSC
import TagEmulation
import Testing

// Ring 3, issue 12: every command path meets the library read's exchange minimum through the real
// pcscd + vpcd, counted as the APDUs the virtual card receives. Each path costs the PC/SC monitor's
// one UID read (`FF CA 00 00 00`) plus the library's own operations, on the same connection.
// What each tag model's library operations cost is ring 2's (CoreNFCLinuxTests.ExchangeCountTests,
// every model and path); here only what the CLI adds through pcscd — the one UID read, on the same
// connection — for one model of each family (Type 2, Type 4 v2 short and v3 extended-length).
extension PCSCSystemTests {
    @Suite("Exchange counts of every command, through pcscd")
    struct CLIExchangeCountTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        /// A tag kind and how to make a fresh copy.
        struct Kind: CustomStringConvertible, Sendable {
            let name: String
            let make: @Sendable () throws -> VirtualTag
            var description: String { name }
        }

        static let message = ScanVectors.uriMessage
        static let uidRead = [UInt8]([0xFF, 0xCA, 0x00, 0x00, 0x00])

        static let kinds: [Kind] = [
            Kind(name: "NTAG213") { try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0x21), ndef: message) },
            Kind(name: "NTAG215") { try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0x22), ndef: message) },
            Kind(name: "NTAG216") { try VirtualType2Tag(product: .ntag216, uid: ScanVectors.uid(0x23), ndef: message) },
            Kind(name: "MIFARE Ultralight") { try VirtualType2Tag(product: .ultralight, uid: ScanVectors.uid(0x24), ndef: message) },
            Kind(name: "Type 4 v2 small") { VirtualType4Tag(version: .v2, ndef: message) },
            Kind(name: "Type 4 v3 small") { VirtualType4Tag(version: .v3, ndef: message) },
            Kind(name: "Type 4 v2 4 KB") { VirtualType4Tag.largeMessage(size: 4096) },
            Kind(name: "Type 4 v3 40 000 B") { VirtualType4Tag.largeMessage(version: .v3, size: 40000) },
        ]

        /// Exchanges of the library's own operations on a fresh connection, through the same
        /// reader personality as the vpcd card (`.generic`).
        static func library(_ tag: VirtualTag, _ body: (NDEFTagOperations) throws -> Void) throws -> Int {
            let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
            let transceiver = EmulatedPCSCTransceiver(reader: reader)
            let ops: NDEFTagOperations = tag is VirtualType4Tag
                ? Type4Tag(transceiver: transceiver)
                : Type2Tag(link: PseudoAPDUType2Link(transceiver: transceiver, profile: .generic))
            try body(ops)
            return reader.plan.exchangeCount
        }

        /// Waits until pcscd reports a card in `Virtual PCD 00 00` (it polls vpcd about every 400 ms).
        static func waitUntilCardIsPresent() throws {
            let context = try Context()
            for _ in 0..<200 {
                var states = [ReaderState(reader: TestPCSCD.reader0)]
                try context.getStatusChange(&states, timeout: .zero)
                if states[0].eventState.contains(.present) { return }
                usleep(20_000)
            }
            Issue.record("pcscd never saw the card")
        }

        /// Runs `args` with a fresh tag on `Virtual PCD 00 00`; returns the result and the APDUs the
        /// card got. Other test processes on the same pcscd (the BlueZ suite runs `nfctap pair` in
        /// parallel) read the UID of every card their monitor sees: a run whose card got a second
        /// UID read was disturbed and is repeated (at most 3 times), so the count stays exact.
        /// `present`: start the command only once pcscd shows the card (for commands that do not wait).
        static func run(_ args: [String], on make: () throws -> VirtualTag, present: Bool = false) throws -> (CLIResult, [[UInt8]]) {
            var attempt = try runOnce(args, on: make(), present: present)
            for _ in 0..<2 where attempt.1.filter({ $0 == uidRead }).count > 1 {
                attempt = try runOnce(args, on: make(), present: present)
            }
            return attempt
        }

        private static func runOnce(_ args: [String], on tag: VirtualTag, present: Bool) throws -> (CLIResult, [[UInt8]]) {
            // pcscd must have seen the previous card go, or it reports this one as the old presence.
            try TestPCSCD.waitUntilReadersAreEmpty()
            let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
            let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
            try card.insert()
            defer { card.stop() }
            if present { try waitUntilCardIsPresent() }
            let result = try runCLI(args + ["--reader", TestPCSCD.reader0])
            card.remove()
            return (result, reader.plan.log)
        }

        /// One of each family: the models whose absolute counts are asserted below, and the
        /// extended-length Type 4 (its chunks through pcscd).
        static let families = kinds.filter { ["NTAG213", "Type 4 v2 small", "Type 4 v3 40 000 B"].contains($0.name) }

        @Test("scan --json: the UID read + the library read; Type 4 small in 6", arguments: families)
        func scan(_ kind: Kind) throws {
            let read = try Self.library(kind.make()) { _ = try $0.readNDEF() }
            let (result, log) = try Self.run(["scan", "--json", "--timeout", "20"], on: kind.make)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(log.first == Self.uidRead)
            #expect(log.count == 1 + read, "\(log.map { $0.hexString(separator: " ") })")
            if kind.name == "Type 4 v2 small" { #expect(log.count == 6) }
            if kind.name == "NTAG213" { #expect(log.count == 1 + 2) }  // generic reader: 4 pages per READ
        }

        @Test("scan --multi, inventory, pair --handler json, readers: the same minimum")
        func otherReadPaths() throws {
            let dir = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            for kind in [Self.kinds[0], Self.kinds[4], Self.kinds[5]] {
                let read = try Self.library(kind.make()) { _ = try $0.readNDEF() }
                try TestPCSCD.waitUntilReadersAreEmpty()
                let multi = try CLIProcess(["scan", "--multi", "--json", "--timeout", "0", "--reader", TestPCSCD.reader0])
                multi.waitForStderr("Hold a tag near")
                let reader = EmulatedPCSCReader(profile: .generic, tag: try kind.make())
                let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
                try card.insert()
                let lines = multi.waitForLines(1)
                #expect(try lines.first.map(ScanJSON.decode)?.records?.first?.uri == ScanVectors.uri, "\(lines)")
                multi.interrupt()
                #expect(multi.finish().status == 0)
                card.remove()
                card.stop()
                // A UID read by another test process on this pcscd is not the command's (see `run`).
                let sent = reader.plan.log
                #expect(sent.first == Self.uidRead && sent.filter { $0 != Self.uidRead }.count == read, "scan --multi \(kind)")

                let output = dir.appendingPathComponent("\(kind.name).jsonl").path
                let (inventory, inventoryLog) = try Self.run(["inventory", "--output", output, "--timeout", "3"], on: kind.make)
                #expect(inventory.status == 0, "\(inventory.stderr)")
                #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count == 1)
                #expect(inventoryLog.count == 1 + read, "inventory \(kind): \(inventoryLog.map { $0.hexString(separator: " ") })")

                let (readers, readersLog) = try Self.run(["readers", "--json"], on: kind.make, present: true)
                #expect(readers.status == 0, "\(readers.stderr)")
                #expect(readersLog == [Self.uidRead], "readers \(kind)")
            }
            let read = try Self.library(VirtualType2Tag.zebraZQ320()) { _ = try $0.readNDEF() }
            let (pair, pairLog) = try Self.run(["pair", "--handler", "json", "--timeout", "20"], on: { VirtualType2Tag.zebraZQ320() })
            #expect(pair.status == 0, "\(pair.stderr)")
            #expect(pairLog.count == 1 + read, "pair: \(pairLog.map { $0.hexString(separator: " ") })")
        }

        @Test("write and write --lock: the UID read + the library's query, write, read back (+ lock)", arguments: families)
        func write(_ kind: Kind) throws {
            let uri = "https://example.com/written"
            let bytes = try NDEFMessage(records: [.uri(uri)]).encoded()
            for lock in [false, true] {
                let expected = try Self.library(kind.make()) { ops in
                    _ = try ops.queryNDEFStatus()
                    try ops.writeNDEF(bytes)
                    _ = try ops.readNDEF()
                    if lock {
                        try ops.writeLock()
                        _ = try ops.queryNDEFStatus()
                    }
                }
                let (result, log) = try Self.run(["write", "--uri", uri, "--json", "--timeout", "20"] + (lock ? ["--lock"] : []),
                                                 on: kind.make)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(log.count == 1 + expected, "lock \(lock): \(log.map { $0.hexString(separator: " ") })")
                if kind.name == "Type 4 v2 small" { #expect(log.count == (lock ? 12 : 9)) }
            }
        }

        @Test("kiosk: one tap costs the UID read + the library read")
        func kiosk() throws {
            let dir = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let config = dir.appendingPathComponent("kiosk.json").path
            let output = dir.appendingPathComponent("taps.jsonl").path
            try PCSCSystemTests.kioskConfig(output: output).write(toFile: config, atomically: true, encoding: .utf8)
            try TestPCSCD.waitUntilReadersAreEmpty()
            let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config])
            kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains(TestPCSCD.reader0) }
            let tag = VirtualType4Tag(version: .v2, ndef: Self.message)
            let read = try Self.library(VirtualType4Tag(version: .v2, ndef: Self.message)) { _ = try $0.readNDEF() }
            let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
            let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
            try card.insert()
            _ = try waitForJSONLines(output, count: 1)
            card.remove()
            #expect(kiosk.terminate() == 0)
            card.stop()
            // A UID read by another test process on this pcscd is not the kiosk's (see `run`).
            let sent = reader.plan.log
            #expect(sent.first == Self.uidRead)
            #expect(sent.filter { $0 != Self.uidRead }.count == read)
            #expect(read == 5)
        }
    }
}

// Ring 3, issue 12 items 2, 3 and 5: `--reader libnfc:<connstring>` with pcscd running and
// LIBNFC_DEVICE unset, several matches refused, and the trace of a known tag.
extension PCSCSystemTests {
    @Suite("--reader and --trace as documented, through pcscd and libnfc")
    struct ReaderOptionCLITests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        /// The environment without any libnfc configuration: only `--reader` names the device.
        static let unconfigured = ["LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""]

        @Test("scan --reader libnfc:pn532_uart:<pty> reads through that device while vpcd readers are attached",
              .enabled(if: SystemEnvironment.available("libnfc")))
        func scanThroughNamedLibNFCDevice() throws {
            let tag = VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage, uid: [0x04, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC])
            let emulator = PN532Emulator(tag: tag)
            let path = try emulator.start()
            defer { emulator.stop() }
            let name = "libnfc:pn532_uart:\(path)"
            let result = try runCLI(["scan", "--json", "--timeout", "20", "--reader", name], environment: Self.unconfigured)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try ScanJSON.decode(result.stdout)
            #expect(report.reader == name)
            #expect(report.uid == tag.uid.hexString)
            #expect(report.records?.first?.uri == ScanVectors.uri)
            // The tag's own exchanges: exactly the library read (SELECT app, SELECT CC, READ CC, SELECT NDEF, READ).
            let apdus = emulator.plan.log.filter { $0.count >= 4 && $0[0] == 0x00 }
            #expect(apdus.count == 5, "\(emulator.plan.log.map { $0.hexString(separator: " ") })")
        }

        @Test("readers --reader libnfc:… lists that device; write and inventory open it too",
              .enabled(if: SystemEnvironment.available("libnfc")))
        func otherCommandsOpenTheNamedDevice() throws {
            let tag = try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0x91), ndef: ScanVectors.uriMessage)
            let emulator = PN532Emulator(tag: tag)
            let path = try emulator.start()
            defer { emulator.stop() }
            let name = "libnfc:pn532_uart:\(path)"
            let readers = try runCLI(["readers", "--json", "--reader", name], environment: Self.unconfigured)
            #expect(readers.status == 0, "\(readers.stderr)")
            let lines = try JSONDecoder().decode([ReaderLine].self, from: Data(readers.stdout.utf8))
            #expect(lines.map(\.name) == [name])
            #expect(lines.first?.tag?.uid == tag.uid.hexString)

            let write = try runCLI(["write", "--text", "hej", "--lang", "sv", "--json", "--timeout", "20", "--reader", name],
                                   environment: Self.unconfigured)
            #expect(write.status == 0, "\(write.stderr)")
            #expect(Array(tag.memory[16 ..< 29]) == [0x03, 0x0A] + ScanVectors.textMessage + [0xFE])

            let dir = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let output = dir.appendingPathComponent("inventory.jsonl").path
            let inventory = try runCLI(["inventory", "--output", output, "--timeout", "3", "--reader", name],
                                       environment: Self.unconfigured)
            #expect(inventory.status == 0, "\(inventory.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8).contains(tag.uid.hexString))
        }

        @Test("kiosk: readers [\"libnfc:<connstring>\"] opens that device; \"trace\": true logs its exchanges",
              .enabled(if: SystemEnvironment.available("libnfc")))
        func kioskOpensTheNamedDevice() throws {
            let tag = VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage, uid: [0x04, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26])
            let emulator = PN532Emulator(tag: tag)
            let path = try emulator.start()
            defer { emulator.stop() }
            let name = "libnfc:pn532_uart:\(path)"
            let dir = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let config = dir.appendingPathComponent("kiosk.json").path
            let output = dir.appendingPathComponent("taps.jsonl").path
            try #"{"action": "json", "output": "\#(output)", "readers": ["\#(name)"], "trace": true}"#
                .write(toFile: config, atomically: true, encoding: .utf8)
            let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config], environment: Self.unconfigured)
            let lines = try waitForJSONLines(output, count: 1)
            #expect(lines.first?["uid"] as? String == tag.uid.hexString)
            #expect(lines.first?["reader"] as? String == name)
            #expect(kiosk.terminate() == 0)
            let trace = kiosk.lines.filter { $0.hasPrefix("nfctap trace: ") }
            #expect(trace.first?.hasPrefix("nfctap trace: connect \(name) ATR ") == true, "\(kiosk.lines)")
            #expect(trace.contains("nfctap trace: > 00 A4 04 00 07 D2 76 00 00 85 01 01 00"), "\(trace)")
        }

        @Test("scan and readers with --reader leave the tags on other readers alone (no UID read)")
        func otherReadersUntouched() throws {
            try TestPCSCD.waitUntilReadersAreEmpty()
            let other = EmulatedPCSCReader(profile: .generic, tag: VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage))
            let otherCard = VPCDCard(behaviour: other, port: TestPCSCD.port1)
            try otherCard.insert()
            defer { otherCard.stop() }
            let mine = EmulatedPCSCReader(profile: .generic, tag: VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage))
            let myCard = VPCDCard(behaviour: mine, port: TestPCSCD.port0)
            try myCard.insert()
            defer { myCard.stop() }
            // pcscd notices an inserted card at its next poll (~400 ms): `readers` lists what it sees now.
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader0)
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader1)
            // Each process's own trace shows every connection it opened: none to the other reader.
            let scan = try runCLI(["scan", "--json", "--trace", "--timeout", "20", "--reader", TestPCSCD.reader0])
            #expect(scan.status == 0, "\(scan.stderr)")
            #expect(scan.stderr.contains("nfctap trace: connect \(TestPCSCD.reader0) ATR"), "\(scan.stderr)")
            #expect(!scan.stderr.contains("connect \(TestPCSCD.reader1)"), "\(scan.stderr)")
            let readers = try runCLI(["readers", "--json", "--trace", "--reader", TestPCSCD.reader0])
            #expect(readers.status == 0, "\(readers.stderr)")
            #expect(readers.stderr.contains("nfctap trace: connect \(TestPCSCD.reader0) ATR"), "\(readers.stderr)")
            #expect(!readers.stderr.contains("connect \(TestPCSCD.reader1)"), "\(readers.stderr)")
            let all = try runCLI(["readers", "--json", "--trace"])
            #expect(all.stderr.contains("nfctap trace: connect \(TestPCSCD.reader1) ATR"), "\(all.stderr)")
            // Other test processes on this pcscd (the BlueZ suite pairs on reader 1) may read its UID, nothing more.
            #expect(other.plan.log.allSatisfy { $0 == [0xFF, 0xCA, 0x00, 0x00, 0x00] },
                    "\(other.plan.log.map { $0.hexString(separator: " ") })")
            myCard.remove()
            otherCard.remove()
        }

        @Test("a part of several reader names is refused (exit 3) naming them, by every command")
        func ambiguousReaderIsRefused() throws {
            let expected = "\"Virtual PCD\" matches several readers: \(TestPCSCD.reader0), \(TestPCSCD.reader1)"
            for args in [["scan", "--timeout", "5"], ["write", "--uri", ScanVectors.uri, "--timeout", "5"],
                         ["apdu", "00A4040007D276000085010100", "--timeout", "5"], ["readers"],
                         ["inventory", "--timeout", "5"], ["pair", "--handler", "json", "--timeout", "5"]] {
                let result = try runCLI(args + ["--reader", "Virtual PCD"])
                #expect(result.status == 3, "\(args): \(result.stderr)")
                #expect(result.stderr.contains(expected), "\(args): \(result.stderr)")
            }
        }

        @Test("scan --trace: one connect with the ATR, then every APDU and reply on stderr")
        func trace() throws {
            let tag = VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
            let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
            let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
            try card.insert()
            defer { card.stop() }
            let result = try runCLI(["scan", "--json", "--trace", "--timeout", "20", "--reader", TestPCSCD.reader0])
            card.remove()
            #expect(result.status == 0, "\(result.stderr)")
            let atr = try #require(reader.atr).hexString(separator: " ")
            let trace = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("nfctap trace: ") }
                .map { $0.dropFirst("nfctap trace: ".count)
                    .replacingOccurrences(of: #" \(\d+\.\d\d ms\)$"#, with: "", options: .regularExpression) }
            let ndefFile = Array(tag.ndefFile.prefix(0xF6)) + [0x90, 0x00]
            let ccFile = Array(tag.ccFile.prefix(15)) + [0x90, 0x00]
            #expect(trace == [
                // One connection per tap: the one that read the UID is the one the read uses.
                "connect \(TestPCSCD.reader0) ATR \(atr)",
                "> FF CA 00 00 00", "< 04 01 02 03 04 05 06 90 00",
                "> 00 A4 04 00 07 D2 76 00 00 85 01 01 00", "< 90 00",
                "> 00 A4 00 0C 02 E1 03", "< 90 00",
                "> 00 B0 00 00 0F", "< \(ccFile.hexString(separator: " "))",
                "> 00 A4 00 0C 02 E1 04", "< 90 00",
                "> 00 B0 00 00 F6", "< \(ndefFile.hexString(separator: " "))",
            ])
            // Without --trace nothing of it.
            try TestPCSCD.waitUntilReadersAreEmpty()
            try card.insert()
            let quiet = try runCLI(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0])
            card.remove()
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(!quiet.stderr.contains("nfctap trace:"))
        }
    }
}
