import Foundation
import NDEF
import NFCReaders
import ReaderCore
import NFCTags
import PCSC
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3: every session invalidation code Core NFC apps handle, each from its real cause on
    /// this machine (docs/corenfc.md, "On Linux the natural causes map as"), seen by the
    /// example programs' delegates: the line iOS code prints for it and the code on stderr.
    /// The 60 s default limit is covered by the unit tests with a manual clock.
    @Suite("Session invalidation codes on pcscd + vpcd")
    struct SessionInvalidationOverPCSC {
        let port0 = TestPCSCD.port0
        let port1 = TestPCSCD.port1

        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        @Test("204: a single-read session ends after the first message; the delegate ignores it")
        func firstTagRead204() throws {
            let example = try ExampleProcess("SingleReadExample")
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.ntag213(uri: "https://example.com/204", text: "x"), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == "URI: https://example.com/204\nText (en): x\n")
            #expect(example.stderr.hasSuffix("session 1 ended: NFCError 204\n"))
        }

        @Test("200: SIGINT to the example process ends the session as user-cancelled (ignored by the delegate)")
        func sigint200() throws {
            let example = try ExampleProcess("SingleReadExample")
            example.waitUntilActive()
            example.send(SIGINT)
            #expect(example.finish() == 130)
            #expect(example.stdout.isEmpty)
            #expect(example.stderr == "Hold a tag near the reader.\nsession 1 ended: NFCError 200\n")
        }

        @Test("200: SIGTERM to the tag reader example the same way")
        func sigterm200() throws {
            let example = try ExampleProcess("TagReaderExample")
            example.waitUntilActive()
            example.send(SIGTERM)
            #expect(example.finish() == 130)
            #expect(example.stdout.isEmpty)
            #expect(example.stderr.hasSuffix("session ended: NFCError 200\n"))
        }

        @Test("203: another process holds the reader exclusively (a PC/SC exclusive connect from the test)")
        func exclusiveHolder203() throws {
            let card = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/busy"), port: port0).insert()
            defer { card.remove() }
            let context = try Context()
            let holder = try connectWhenPresent(context, reader: TestPCSCD.reader0)
            defer { try? holder.disconnect(.leave) }
            let example = try ExampleProcess("SingleReadExample")
            #expect(example.finish() == 1)
            #expect(example.stdout == "Session invalidated: reader \(TestPCSCD.reader0) is in use by another process (code 203)\n")
            #expect(example.stderr.hasSuffix("session 1 ended: NFCError 203\n"))
            // Nothing reached the tag but the holder's own traffic (none) and no read happened.
            #expect(!card.plan.log.contains { $0.first == 0x00 })
        }

        @Test("203: a second session begun in the same process while the first is active; the first reads")
        func secondSession203() throws {
            let example = try ExampleProcess("SingleReadExample", ["--sessions", "2"])
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/first"), port: port1).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let lines = example.stdout.split(separator: "\n").map(String.init)
            #expect(lines.sorted() == [
                "Session invalidated: another NFC reader session is already active (code 203)",
                "URI: https://example.com/first",
            ])
            let ends = example.stderr.split(separator: "\n").filter { $0.contains(" ended: NFCError ") }
                .map { $0.split(separator: " ").last.map(String.init) ?? "" }
            #expect(ends.sorted() == ["203", "204"])
        }

        @Test("202: pcscd killed during a single-read session (this machine's \"reader unplugged\")")
        func pcscdKilled202() throws {
            defer { try? TestPCSCD.control("start") }
            let example = try ExampleProcess("SingleReadExample")
            example.waitUntilActive()
            try TestPCSCD.control("kill")
            #expect(example.finish() == 1)
            #expect(example.stdout == "Session invalidated: \(PCSCBackend.serviceHint) (code 202)\n")
            #expect(example.stderr.hasSuffix("session 1 ended: NFCError 202\n"))
        }

        @Test("202: a multi-read session that read a tag ends when pcscd goes (readerRemovalEndsSession = true)")
        func multiReadEndsOnUnplug202() throws {
            defer { try? TestPCSCD.control("start") }
            let example = try ExampleProcess("InventoryExample", ["--time-limit", "0"])
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/before"), port: port0).insert()
            defer { card.remove() }
            example.waitForStdout("Tag 1: ")
            try TestPCSCD.control("kill")
            try TestPCSCD.control("start")
            #expect(example.finish() == 1)
            #expect(example.stdout == """
                Tag 1: URI: https://example.com/before
                Session invalidated: \(PCSCBackend.serviceHint) (code 202)

                """)
            #expect(example.stderr.hasSuffix("session ended: NFCError 202\n"))
        }

        @Test("kiosk (readerRemovalEndsSession = false): pcscd killed and restarted, the session goes on and reads again")
        func kioskSurvivesRestart() throws {
            defer { try? TestPCSCD.control("start") }
            let example = try ExampleProcess("InventoryExample", ["--time-limit", "0", "--kiosk"])
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.ntag213(uri: "https://example.com/kiosk", text: "k"), port: port0).insert()
            defer { card.remove() }
            example.waitForStdout("Tag 1: ")
            try TestPCSCD.control("kill")
            try TestPCSCD.control("start")
            // The card stayed on the reader; the vpcd client reconnects to the new pcscd. The session
            // saw the reader go and come back, so this is a new presence and is read again.
            example.waitForStdout("Tag 2: ")
            let other = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/after"), port: port1).insert()
            defer { other.remove() }
            example.waitForStdout("Tag 3: ")
            example.send(SIGINT)
            #expect(example.finish() == 0)
            #expect(example.stdout == """
                Tag 1: URI: https://example.com/kiosk | Text (en): k
                Tag 2: URI: https://example.com/kiosk | Text (en): k
                Tag 3: URI: https://example.com/after

                """)
            #expect(example.stderr.hasSuffix("session ended: NFCError 200\n"))
        }

        @Test("100: the tag removed in the middle of the read")
        func tagRemovedMidRead100() throws {
            let plan = FaultPlan(latency: .milliseconds(150))
            let tag = try ExampleFixtures.ntag213(uri: "https://example.com/" + String(repeating: "long/", count: 20), text: "gone")
            let example = try ExampleProcess("SingleReadExample")
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0, plan: plan).insert()
            // Exchange 0 is the monitor's GET UID; once the session's read has sent its second
            // command, the card leaves while that command is in flight.
            try waitUntil { plan.exchangeCount >= 3 }
            card.remove()
            #expect(example.finish() == 1)
            #expect(example.stdout == "Session invalidated: the tag left the field (code 100)\n")
            // The read was cut short: a whole read of this ~150-byte message takes about ten READs.
            #expect(plan.exchangeCount < 5)
            #expect(example.stderr.hasSuffix("session 1 ended: NFCError 100\n"))
        }

        @Test("201: a Linux-configured short time limit (2 s) ends a session that saw no tag")
        func timeLimit201() throws {
            let example = try ExampleProcess("SingleReadExample", ["--time-limit", "2"])
            #expect(example.finish() == 1)
            #expect(example.stdout == "Session invalidated: session timeout after 2.0 seconds (code 201)\n")
            #expect(example.stderr == "Hold a tag near the reader.\nsession 1 ended: NFCError 201\n")
        }

        @Test("1: no pcscd — begin() fails with readerErrorUnsupportedFeature and the message names the fix")
        func noPcscd1() throws {
            defer { try? TestPCSCD.control("start") }
            try TestPCSCD.control("stop")
            for name in ["SingleReadExample", "TagReaderExample"] {
                let example = try ExampleProcess(name)
                #expect(example.finish() == 1)
                #expect(example.stdout == "Session invalidated: \(PCSCBackend.serviceHint) (code 1)\n")
                #expect(example.stderr.hasSuffix("ended: NFCError 1\n"))
                #expect(!example.stderr.contains("near the reader"))  // never became active
            }
            try TestPCSCD.control("start")
            // Back: the same program works again.
            let example = try ExampleProcess("SingleReadExample")
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/back"), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == "URI: https://example.com/back\n")
        }

        // MARK: Helpers

        /// Connects exclusively once pcscd has noticed the card (at its next ~400 ms poll).
        private func connectWhenPresent(_ context: Context, reader: String) throws -> Card {
            for _ in 0..<200 {
                if let card = try? context.connect(reader: reader, share: .exclusive) { return card }
                usleep(50_000)
            }
            return try context.connect(reader: reader, share: .exclusive)
        }

        /// Polls `condition` every 5 ms (bounded so a broken build fails instead of hanging).
        private func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
            for _ in 0..<4000 where !condition() { usleep(5_000) }
            try #require(condition(), "condition never held", sourceLocation: sourceLocation)
        }
    }
}
