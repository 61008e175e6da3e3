import Foundation
import NDEF
import NFCTags
import PCSC
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3: the example programs (Examples/, iOS reader code with `import CoreNFCLinux`) run as
    /// processes on the real pcscd, with virtual tags on the vpcd readers. Nested in the PC/SC
    /// suite so it is serialized with the other tests sharing (and restarting) the daemon.
    @Suite("Examples on pcscd + vpcd")
    struct ExamplesOverPCSC {
        let port0 = TestPCSCD.port0
        let port1 = TestPCSCD.port1
        static let getUID = [UInt8](hex: "FF CA 00 00 00")!
        static let selectNDEF = [UInt8](hex: "00 A4 04 00 07 D2 76 00 00 85 01 01 00")!

        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        // MARK: Apple's sample pattern (read-write session)

        @Test("read-write example reads a tag: connect, query, read, one line per record, exit 0")
        func readWriteReads() throws {
            let tag = try ExampleFixtures.ntag213(uri: "https://example.com/nfctap", text: "Hello, Linux")
            let example = try ExampleProcess("NDEFReadWriteExample")
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == "URI: https://example.com/nfctap\nText (en): Hello, Linux\n")
            #expect(example.stderr == """
                Hold a tag near the reader to read it.
                Read 2 record(s).
                session ended: NFCError 200

                """)
        }

        @Test("read-write example writes a Type 2 tag: the NDEF TLV holds exactly the encoded message")
        func readWriteWritesType2() throws {
            let tag = VirtualType2Tag.blankNTAG213()
            let example = try ExampleProcess("NDEFReadWriteExample", ["write", "https://nfctap.example/w", "written on Linux"])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let expected = try ExampleFixtures.message([.uri("https://nfctap.example/w"), try .text("written on Linux", language: "en")])
            #expect(example.stdout == "Wrote 2 record(s), \(expected.count) bytes.\n")
            #expect(example.stderr.contains("Write NDEF message successful.\n"))
            #expect(ExampleFixtures.ndefMessage(in: tag) == expected)
            // The message still reads back through the codec as written.
            let decoded = try NDEFMessage(bytes: try #require(ExampleFixtures.ndefMessage(in: tag)))
            #expect(decoded.records.map(\.type) == [[0x55], [0x54]])
        }

        @Test("read-write example writes a Type 4 tag: the NDEF file holds exactly the encoded message")
        func readWriteWritesType4() throws {
            let tag = VirtualType4Tag()
            let example = try ExampleProcess("NDEFReadWriteExample", ["write", "tel:+15551234"])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port1).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let expected = try ExampleFixtures.message([.uri("tel:+15551234")])
            #expect(expected == [0xD1, 0x01, 0x0A, 0x55, 0x05] + Array("+15551234".utf8))
            #expect(tag.ndefMessage == expected)
            #expect(example.stdout == "Wrote 1 record(s), 14 bytes.\n")
        }

        @Test("read-write example refuses a read-only tag for writing and leaves it untouched")
        func readWriteRefusesReadOnly() throws {
            let tag = VirtualType4Tag.readOnly()
            let before = tag.ndefFile
            let example = try ExampleProcess("NDEFReadWriteExample", ["write", "https://nfctap.example/"])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 1)
            #expect(example.stdout.isEmpty)
            #expect(example.stderr.contains("Tag is read-only.\nsession ended: NFCError 200\n"))
            #expect(tag.ndefFile == before)
        }

        @Test("read-write example: a tag without NDEF → .notSupported → invalidate with a message, exit 1")
        func readWriteNotNDEF() throws {
            // A factory-blank MIFARE Ultralight: no capability container, so not NDEF formatted.
            let tag = try VirtualType2Tag(product: .ultralight, uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
            let example = try ExampleProcess("NDEFReadWriteExample")
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 1)
            #expect(example.stdout.isEmpty)
            #expect(example.stderr.hasSuffix("Tag is not NDEF compliant.\nsession ended: NFCError 200\n"))
        }

        @Test("read-write example with tags on both readers: alert, restart polling every 500 ms, read once one is removed")
        func readWriteMoreThanOneTag() throws {
            let first = try VPCDTag(try ExampleFixtures.ntag213(uri: "https://example.com/one", text: "one"), port: port0).insert()
            defer { first.remove() }
            let second = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/two"), port: port1).insert()
            defer { second.remove() }
            // pcscd polls each vpcd reader on its own ~400 ms cycle, and the session's monitor asks
            // each card for its UID (tens of ms through vpcd): wait until pcscd has both, and let
            // the session count tags within 1 s as detected together.
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader0)
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader1)
            let example = try ExampleProcess("NDEFReadWriteExample", ["--batch-window", "1000"])
            // Twice: the restarted polling found both tags again.
            example.waitForStderr("More than 1 tag is detected. Please remove all tags and try again.", count: 2)
            #expect(example.stdout.isEmpty)
            #expect(second.plan.log == [Self.getUID])  // handed out, never connected to
            second.remove()
            #expect(example.finish() == 0)
            #expect(example.stdout == "URI: https://example.com/one\nText (en): one\n")
            #expect(example.stderr.hasSuffix("Read 2 record(s).\nsession ended: NFCError 200\n"))
        }

        // MARK: Single-read and multi-read delegates

        @Test("single-read example prints the message and ends with 204, exit 0")
        func singleRead() throws {
            let example = try ExampleProcess("SingleReadExample")
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/single"), port: port1).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == "URI: https://example.com/single\n")
            #expect(example.stderr == "Hold a tag near the reader.\nsession 1 ended: NFCError 204\n")
        }

        @Test("inventory example prints one line per tap, not again for a tag left in place; Ctrl-C ends it with 200")
        func inventory() throws {
            let example = try ExampleProcess("InventoryExample", ["--time-limit", "0"])
            example.waitUntilActive()
            let a = try VPCDTag(try ExampleFixtures.ntag213(uri: "https://example.com/a", text: "A"), port: port0).insert()
            defer { a.remove() }
            example.waitForStdout("Tag 1: ")
            let b = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/b"), port: port1).insert()
            defer { b.remove() }
            example.waitForStdout("Tag 2: ")
            // Tag A leaves and comes back: a new presence, read again. B stays: not read again.
            a.remove()
            try TestPCSCD.waitUntilReaderIsEmpty(TestPCSCD.reader0)
            try a.insert()
            example.waitForStdout("Tag 3: ")
            example.send(SIGINT)
            #expect(example.finish() == 0)
            #expect(example.stdout == """
                Tag 1: URI: https://example.com/a | Text (en): A
                Tag 2: URI: https://example.com/b
                Tag 3: URI: https://example.com/a | Text (en): A

                """)
            #expect(example.stderr.hasSuffix("session ended: NFCError 200\n"))
        }

        // MARK: Tag reader session

        @Test("tag reader example: an ISO 7816 card gets SELECT NDEF application; SW printed; exact APDUs")
        func tagReaderSelectsOnType4() throws {
            let example = try ExampleProcess("TagReaderExample")
            example.waitUntilActive()
            let card = try VPCDTag(VirtualType4Tag.smallMessage(), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == """
                ISO 7816 card 04 53 7A 2A 9C 61 80
                SELECT NDEF application: SW 90 00, 0 data bytes

                """)
            #expect(card.plan.log == [Self.getUID, Self.selectNDEF])
            #expect(example.stderr.hasSuffix("NDEF application found.\nsession ended: NFCError 200\n"))
        }

        @Test("tag reader example: a card without the NDEF application answers 6A 82, printed as is")
        func tagReaderSelectOnForeignCard() throws {
            let scripted = ScriptedCard(atr: TestPCSCD.type4ATR, replies: [
                Self.getUID: [0x08, 0x01, 0x02, 0x03, 0x90, 0x00],
                Self.selectNDEF: [0x6A, 0x82],
            ])
            let example = try ExampleProcess("TagReaderExample")
            example.waitUntilActive()
            let card = VPCDCard(behaviour: scripted, port: port1)
            try card.insert()
            defer { card.stop() }
            #expect(example.finish() == 0)
            #expect(example.stdout == "ISO 7816 card 08 01 02 03\nSELECT NDEF application: SW 6A 82, 0 data bytes\n")
            #expect(scripted.received == [Self.getUID, Self.selectNDEF])
            #expect(example.stderr.hasSuffix("No NDEF application.\nsession ended: NFCError 200\n"))
        }

        @Test("tag reader example: an NTAG is .miFare (ultralight); READ 30 04 prints the 16 bytes of pages 4-7")
        func tagReaderReadsPage4() throws {
            let tag = try ExampleFixtures.ntag213(uri: "https://example.com/page4", text: "p4")
            let example = try ExampleProcess("TagReaderExample")
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let page4 = tag.pages(4 ..< 8)
            #expect(page4.count == 16)
            #expect(example.stdout == """
                MIFARE tag 04 5A 2C 91 6E 3F 80, family 2
                READ page 4: \(page4.map { String(format: "%02X", $0) }.joined(separator: " "))

                """)
            // NTAG213 page 4: the Lock Control TLV (01 03 A0 0C 34), then the NDEF TLV (03 len) and
            // the first record's header (91: MB, SR, well-known).
            #expect(Array(page4.prefix(6)) == [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03])
            #expect(page4[7] == 0x91)
            // The monitor's GET UID, then one READ BINARY of page 4 (16 bytes): nothing else.
            #expect(card.plan.log == [Self.getUID, [0xFF, 0xB0, 0x00, 0x04, 0x10]])
        }

        @Test("tag reader example with tags on both readers: alert and restartPolling, then the remaining NTAG is read")
        func tagReaderMoreThanOneTag() throws {
            let ntag = try ExampleFixtures.ntag213(uri: "https://example.com/stay", text: "s")
            let staying = try VPCDTag(ntag, port: port0).insert()
            defer { staying.remove() }
            let leaving = try VPCDTag(VirtualType4Tag.smallMessage(), port: port1).insert()
            defer { leaving.remove() }
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader0)
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader1)
            let example = try ExampleProcess("TagReaderExample", ["--batch-window", "1000"])
            example.waitForStderr("More than 1 tag is detected. Please remove all tags and try again.", count: 2)
            leaving.remove()
            #expect(example.finish() == 0)
            #expect(example.stdout.hasPrefix("MIFARE tag 04 5A 2C 91 6E 3F 80, family 2\nREAD page 4: 01 03 A0 0C 34 03"))
            #expect(leaving.plan.log == [Self.getUID])  // never selected
        }
    }
}

extension TestPCSCD {
    /// Waits until pcscd sees `reader` empty (a removed card is noticed at its next poll).
    static func waitUntilReaderIsEmpty(_ reader: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try waitForState(of: reader, .empty, "the card stayed in \(reader)", sourceLocation: sourceLocation)
    }

    /// Waits until pcscd sees a card in `reader` (an inserted card is noticed at its next poll).
    static func waitUntilCardIsPresent(_ reader: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try waitForState(of: reader, .present, "no card appeared in \(reader)", sourceLocation: sourceLocation)
    }

    private static func waitForState(of reader: String, _ flag: ReaderState.Flags, _ failure: String,
                                     sourceLocation: SourceLocation) throws {
        let context = try Context()
        for _ in 0..<200 {
            var states = [ReaderState(reader: reader)]
            try context.getStatusChange(&states, timeout: .zero)
            if states[0].eventState.contains(flag) { return }
            usleep(50_000)
        }
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}
