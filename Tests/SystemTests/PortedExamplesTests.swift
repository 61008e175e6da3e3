import Foundation
import NDEF
import NFCTags
import PCSC
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3: iOS programs written in the styles people publish (a wrapper library with
    /// completion handlers, async/await, ISO 7816 with `Result` handlers, raw Ultralight commands),
    /// compiled with only `import CoreNFCLinux`, run as processes against virtual tags on pcscd.
    @Suite("Ported iOS examples on pcscd + vpcd")
    struct PortedExamplesOverPCSC {
        let port0 = TestPCSCD.port0

        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        private func temporaryArchive() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-archive-\(UUID().uuidString)")
        }

        // MARK: Wrapper library: completion handlers, Result, NSKeyedArchiver

        @Test("wrapper example reads a tag, and the message it archived reads back in a new process")
        func wrapperReadsAndArchives() throws {
            let archive = temporaryArchive()
            defer { try? FileManager.default.removeItem(at: archive) }
            let tag = try ExampleFixtures.ntag213(uri: "https://example.com/wrapped", text: "Wrapped")
            let example = try ExampleProcess("NDEFWrapperExample", ["read", "--archive", archive.path])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == "URI: https://example.com/wrapped\nText (en): Wrapped\n")
            #expect(example.stderr.contains("NFC: detected <NFCMiFareTag: identifier 045A2C916E3F80"))
            let last = try ExampleProcess("NDEFWrapperExample", ["last", "--archive", archive.path])
            #expect(last.finish() == 0)
            #expect(last.stdout == example.stdout)
        }

        @Test("wrapper example writes URI, Text and a MIME record from a Self factory onto a blank NTAG213")
        func wrapperWrites() throws {
            let archive = temporaryArchive()
            defer { try? FileManager.default.removeItem(at: archive) }
            let tag = VirtualType2Tag.blankNTAG213()
            let example = try ExampleProcess("NDEFWrapperExample",
                                             ["write", "https://nfctap.example/w", "note", "--archive", archive.path])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let expected = try ExampleFixtures.message([.uri("https://nfctap.example/w"), try .text("note", language: "en"),
                                                        .mime("application/json", Array("{\"v\":1}".utf8))])
            #expect(ExampleFixtures.ndefMessage(in: tag) == expected)
            #expect(example.stdout == "URI: https://nfctap.example/w\nText (en): note\napplication/json: 7 bytes\n")
        }

        @Test("wrapper example refuses a message larger than the tag, with its LocalizedError text, exit 1")
        func wrapperTooLarge() throws {
            let archive = temporaryArchive()
            defer { try? FileManager.default.removeItem(at: archive) }
            let tag = VirtualType2Tag.blankNTAG213()
            let long = String(repeating: "x", count: 200)
            let example = try ExampleProcess("NDEFWrapperExample", ["write", "https://e.example/", long, "--archive", archive.path])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 1)
            #expect(example.stdout.hasPrefix("Failed: The message needs "))
            #expect(example.stdout.contains("the tag holds 137."))
            #expect(ExampleFixtures.ndefMessage(in: tag) == [])
        }

        // MARK: async/await

        @Test("async example: connect, query, read, append a Text record, write, all with try await")
        func asyncAppends() throws {
            let tag = try ExampleFixtures.ntag213(uri: "https://example.com/a", text: "first")
            let example = try ExampleProcess("AsyncNDEFExample", ["--append", "second"])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == """
                Capacity: 137 bytes
                Read: URI https://example.com/a
                Read: Text first
                Wrote: URI https://example.com/a
                Wrote: Text first
                Wrote: Text second

                """)
            let expected = try ExampleFixtures.message([.uri("https://example.com/a"), try .text("first", language: "en"),
                                                        try .text("second", language: "en")])
            #expect(ExampleFixtures.ndefMessage(in: tag) == expected)
            #expect(example.stderr.contains("Write complete."))
        }

        @Test("async example: a blank tag reads as no records (403 caught), then takes the appended record")
        func asyncBlank() throws {
            let tag = VirtualType2Tag.blankNTAG213()
            let example = try ExampleProcess("AsyncNDEFExample", ["--append", "hello"])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            #expect(example.stdout == "Capacity: 137 bytes\nWrote: Text hello\n")
            #expect(ExampleFixtures.ndefMessage(in: tag) == (try ExampleFixtures.message([try .text("hello", language: "en")])))
        }

        // MARK: ISO 7816 with Result handlers

        @Test("ISO 7816 example reads a Type 4 NDEF file with sendCommand(apdu:resultHandler:)")
        func iso7816ReadsURI() throws {
            let example = try ExampleProcess("ISO7816ReaderExample")
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/t4"), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let lines = example.stdout.split(separator: "\n").map(String.init)
            #expect(Array(lines.dropFirst().prefix(3)) == ["SELECT application: SW 90 00, 0 bytes", "SELECT CC: SW 90 00, 0 bytes",
                                                           "READ CC: SW 90 00, 15 bytes"])
            #expect(lines.last == "URI: https://example.com/t4")
            #expect(example.stderr.contains("Read 1 record(s)."))
        }

        @Test("ISO 7816 example reads a 600-byte message in chunks of the card's MLe")
        func iso7816ReadsInChunks() throws {
            let example = try ExampleProcess("ISO7816ReaderExample")
            example.waitUntilActive()
            let card = try VPCDTag(VirtualType4Tag.largeMessage(size: 600), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let reads = example.stdout.split(separator: "\n").filter { $0.hasPrefix("READ BINARY:") }
            #expect(reads.count == 3)  // 600 bytes, MLe 0xF6 = 246: 246 + 246 + 108
            #expect(example.stdout.hasSuffix("Record TNF 2, 581 bytes\n"))  // 600 − 6 header − 13 type bytes
        }

        // MARK: Raw Ultralight commands

        @Test("Ultralight example writes page by page, each WRITE answered 0A, and reads back what it wrote")
        func ultralightWrites() throws {
            let tag = VirtualType2Tag.blankNTAG213()
            let example = try ExampleProcess("UltralightRawExample", ["https://nfctap.example/raw"])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let message = try ExampleFixtures.message([.uri("https://nfctap.example/raw")])
            #expect(ExampleFixtures.ndefMessage(in: tag) == message)
            let tlvPages = (2 + message.count + 1 + 3) / 4
            let acks = example.stdout.split(separator: "\n").filter { $0.hasSuffix(": ACK") }
            #expect(acks.count == tlvPages)
            #expect(example.stdout.hasSuffix("Verified \(tlvPages * 4) bytes.\n"))
        }
    }
}
