import Foundation
import NDEF
import NFCTags
import NFCTapKitTestSupport
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3, docs/faults.md, "Freezes": cards that stop answering or answer slowly while they stay
    /// in a vpcd reader, through the real pcscd. Nothing may freeze: `--timeout` bounds the command,
    /// signals end it within a second (asserted as 3 s: a loaded 2-core machine), another reader
    /// keeps working, kiosk exits on SIGTERM. Nested in the PC/SC suite (one pcscd, serialized).
    @Suite("Freezes: stuck and slow cards through pcscd + vpcd")
    struct FreezeFaultTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        /// A card in vpcd reader `reader` whose exchanges follow `plan` (stall, latency).
        final class FaultyCard {
            let behaviour: EmulatedVPCDCard
            let card: VPCDCard
            var plan: FaultPlan { behaviour.reader.plan }

            init(_ tag: VirtualTag, reader: Int = 0, faults: [Int: InjectedFault] = [:], latency: Duration = .zero) throws {
                behaviour = EmulatedVPCDCard(tag: tag)
                behaviour.reader.plan.reset(faults: faults)
                behaviour.reader.plan.latency = latency
                card = VPCDCard(behaviour: behaviour, port: reader == 0 ? TestPCSCD.port0 : TestPCSCD.port1)
                try card.insert()
            }

            /// Lets a stalled exchange go (the card "leaves") and takes the card out.
            func remove() {
                plan.latency = .zero
                plan.releaseStalls()
                card.remove()
            }

            deinit { remove() }
        }

        static func stuckType4(reader: Int = 0) throws -> FaultyCard {
            try FaultyCard(VirtualType4Tag.smallMessage(), reader: reader, faults: [0: .stall])
        }

        static func waitForStall(_ card: FaultyCard, sourceLocation: SourceLocation = #_sourceLocation) {
            let end = Date().addingTimeInterval(20)
            while card.plan.stalledExchanges == 0, Date() < end { usleep(10_000) }
            #expect(card.plan.stalledExchanges == 1, "the card never got an exchange", sourceLocation: sourceLocation)
        }

        @Test("scan --timeout 5 on a card that never answers: exit 2 within the timeout (+3 s margin), saying why")
        func scanStuckCardBoundedByTimeout() throws {
            let card = try Self.stuckType4()
            defer { card.remove() }
            let started = Date()
            let cli = try CLIProcess(["scan", "--timeout", "5"])
            let result = cli.finish(deadline: 30)
            let elapsed = Date().timeIntervalSince(started)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(elapsed < 8, "scan --timeout 5 took \(elapsed) s")
            #expect(result.stderr.contains("no tag could be read within 5 s"), "\(result.stderr)")
            #expect(result.stderr.contains(TestPCSCD.reader0), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        @Test("SIGINT and SIGTERM end a scan stuck in an exchange within 1 s (asserted 3 s): exit 130",
              arguments: [SIGINT, SIGTERM])
        func signalMidExchange(_ number: Int32) throws {
            let card = try Self.stuckType4()
            defer { card.remove() }
            // No deadline and no time limit: only the signal can end it.
            let cli = try CLIProcess(["scan", "--timeout", "0", "--io-timeout", "0"])
            Self.waitForStall(card)
            let sent = Date()
            kill(cli.pid, number)
            let result = cli.finish(deadline: 30)
            let elapsed = Date().timeIntervalSince(sent)
            #expect(result.status == 130, "\(result.stderr)")
            #expect(elapsed < 3, "exit took \(elapsed) s after signal \(number)")
        }

        @Test("--io-timeout: documented in --help, refused outside 0 or 0.1 s ... 1 day", arguments: ["-1", "0.05", "nan", "100000"])
        func ioTimeoutValidation(_ value: String) throws {
            let refused = try runCLI(["scan", "--io-timeout=\(value)", "--timeout", "1"])
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("--io-timeout must be 0 (no limit) or between 0.1 and 86400 seconds"), "\(refused.stderr)")
            let help = try runCLI(["scan", "--help"])
            #expect(help.stdout.contains("--io-timeout <seconds>"))
            #expect(help.stdout.contains("--timeout bounds the whole command"))
        }

        @Test("a slow card (3 s per APDU) cannot keep scan past --timeout 5")
        func slowCardBoundedByTimeout() throws {
            let card = try FaultyCard(VirtualType4Tag.smallMessage(), latency: .seconds(3))
            defer { card.remove() }
            let started = Date()
            // The per-operation deadline is out of the way: --timeout alone must bound the command.
            let result = try CLIProcess(["scan", "--timeout", "5", "--io-timeout", "60"]).finish(deadline: 30)
            let elapsed = Date().timeIntervalSince(started)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(elapsed < 8, "scan --timeout 5 took \(elapsed) s")
        }

        @Test("a Type 4 tag claiming a 2 MB NDEF message is refused fast with a clear error")
        func twoMegabyteClaim() throws {
            let card = try FaultyCard(VirtualType4Tag.largeMessage(version: .v3, size: 2 * 1024 * 1024))
            defer { card.remove() }
            let started = Date()
            // --multi prints every tag's report, failed ones too.
            let cli = try CLIProcess(["scan", "--multi", "--json", "--timeout", "30"])
            let lines = cli.waitForLines(1, deadline: 20)
            let elapsed = Date().timeIntervalSince(started)
            cli.interrupt()
            _ = cli.finish(deadline: 10)
            // Reading 2 MB in 246-byte chunks through vpcd would take minutes.
            #expect(elapsed < 6, "the refusal took \(elapsed) s")
            #expect(card.plan.exchangeCount < 20, "\(card.plan.exchangeCount) exchanges: the message was read")
            let report = try ScanJSON.decode(try #require(lines.first))
            #expect(report.records == nil)
            #expect(report.error?.contains("ENLEN claims a 2097152-byte NDEF message, over the 1048576-byte limit") == true,
                    "\(report.error ?? "")")
        }

        @Test("inventory records a good card on reader 00 01 while reader 00 00's card is stuck")
        func inventoryGoesOnBesideAStuckCard() throws {
            let dir = try TemporaryDirectory()
            let path = dir.path("taps.jsonl")
            let stuck = try Self.stuckType4(reader: 0)
            defer { stuck.remove() }
            let cli = try LiveCLI(["inventory", "--output", path, "--io-timeout", "60"])
            cli.waitFor("Inventory: tap tags")
            Self.waitForStall(stuck)
            let good = try FaultyCard(try inventoryTag(uid: 7, uri: "https://example.com/good"), reader: 1)
            defer { good.remove() }
            // The stuck card has 60 s left on its deadline: the good card must not wait for it.
            let started = Date()
            #expect(cli.waitFor("✓ #1 ", deadline: 10))
            #expect(Date().timeIntervalSince(started) < 10)
            #expect(cli.confirmations[1] == "04102030405007")
            let sent = Date()
            cli.signal(SIGTERM)
            #expect(cli.finish() == 0)
            #expect(Date().timeIntervalSince(sent) < 3)
            let lines = try parseJSONLines(try String(contentsOfFile: path, encoding: .utf8))
            #expect(lines.count == 1)
            #expect(lines.first?["reader"] as? String == TestPCSCD.reader1)
        }

        @Test("kiosk with a stuck card exits 0 on SIGTERM well within its stop timeout")
        func kioskSIGTERMWithStuckCard() throws {
            let dir = try kioskDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let config = dir.appendingPathComponent("kiosk.json").path
            let out = dir.appendingPathComponent("taps.jsonl").path
            try PCSCSystemTests.kioskConfig(output: out).write(toFile: config, atomically: true, encoding: .utf8)
            let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config])
            kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains(TestPCSCD.reader0) }
            let stuck = try Self.stuckType4(reader: 0)
            defer { stuck.remove() }
            Self.waitForStall(stuck)
            let sent = Date()
            #expect(kiosk.terminate() == 0)
            let elapsed = Date().timeIntervalSince(sent)
            // systemd/nfctap-kiosk.service: TimeoutStopSec=75s; the promise is 1 s.
            #expect(elapsed < 3, "kiosk took \(elapsed) s to exit")
        }
    }
}
