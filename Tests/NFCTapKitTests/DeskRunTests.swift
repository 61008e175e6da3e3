import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
@testable import NFCTapKit
import TagEmulation
import Testing

/// `scan`, `write` and `apdu`'s runs, in-process against the virtual reader backend (issue 25
/// item 1): what each decides, and what a write leaves on the tag. No daemons.
@Suite(.serialized) struct DeskRunTests {
    static func readers(_ backend: VirtualReaderBackend) -> DeskReaders {
        DeskReaders(environment: NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() }))
    }

    /// The exit status a run ends with.
    static func status(_ run: () async throws(CLIError) -> Void) async -> Int32 {
        do {
            try await run()
            return ExitStatus.ok
        } catch {
            return error.status
        }
    }

    @Test("write puts the message on a Type 4 tag and succeeds")
    func writeType4() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let tag = VirtualType4Tag(version: .v2, ndef: [])
        _ = backend.place(tag, on: "Virtual A")
        let message = try WriteMessage(uri: "https://example.com/desk", text: nil, language: "en", mime: nil, file: nil, ndefFile: nil)
        // A long session timeout: in the parallel unit ring the cooperative pool can be busy with
        // other suites for seconds on a 2-core machine.
        let run = WriteRun(message: message, lock: false, json: true, timeout: 120, readers: Self.readers(backend))
        #expect(await Self.status(run.run) == ExitStatus.ok)
        #expect(tag.ndefMessage == message.bytes)
        #expect(tag.ndefMessage == (try NDEFMessage(records: [.uri("https://example.com/desk")]).encoded()))
    }

    @Test("scan reads a tag and succeeds; with none before --timeout it fails with exit status 2")
    func scanOutcomes() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let idle = ScanRun(json: true, multi: false, timeout: 0.5, readers: Self.readers(backend))
        #expect(await Self.status(idle.run) == ExitStatus.noTag)

        _ = backend.place(VirtualType4Tag(version: .v2, ndef: try NDEFMessage(records: [.uri("https://example.com/s")]).encoded()),
                          on: "Virtual A")
        let run = ScanRun(json: true, multi: false, timeout: 120, readers: Self.readers(backend))
        #expect(await Self.status(run.run) == ExitStatus.ok)
    }

    /// docs/faults.md "Lost, malformed": a tag that answers with bytes nfctap refuses ends a single
    /// scan with exit 1 at once (not a retry until --timeout and exit 2); --multi goes on.
    @Test("scan of a tag answering with data nfctap refuses exits 1 at once; --multi goes on", arguments: [
        "type2-malformed-ndef", "type2-tlv-overrun", "type4-nlen-overrun",
    ])
    func scanRefusedData(_ kind: String) async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let tag: any VirtualTag
        let why: String
        switch kind {
        case "type2-malformed-ndef":
            // A record header announcing 80 bytes of payload, followed by 2.
            tag = try VirtualType2Tag(product: .ntag213, uid: [0x04, 1, 2, 3, 4, 5, 6], ndef: [0xD1, 0x01, 0x50, 0x55, 0x04, 0x61])
            why = "malformed NDEF message"
        case "type2-tlv-overrun":
            // An NTAG213 whose NDEF TLV claims 0x1FF bytes, past its 144-byte data area.
            var memory = try VirtualType2Tag(product: .ntag213, uid: [0x04, 1, 2, 3, 4, 5, 6], ndef: []).memory
            memory.replaceSubrange(16 ..< 20, with: [0x03, 0xFF, 0x01, 0xFF])
            tag = try VirtualType2Tag(product: .ntag213, memory: memory)
            why = "run past the data area"
        default:
            // A Type 4 tag whose NDEF file length (NLEN) exceeds the file the CC describes.
            let type4 = VirtualType4Tag(version: .v2, ndef: try NDEFMessage(records: [.uri("https://example.com/n")]).encoded())
            type4.ndefFile.replaceSubrange(0 ..< 2, with: [0x7F, 0xF0])
            tag = type4
            why = "NLEN 32752 exceeds"
        }
        _ = backend.place(tag, on: "Virtual A")
        let started = ContinuousClock.now
        do {
            try await ScanRun(json: true, multi: false, timeout: 20, readers: Self.readers(backend)).run()
            Issue.record("the scan succeeded")
        } catch {
            #expect(error.status == ExitStatus.failure, "\(error.message)")
            #expect(error.message.contains("answered with data nfctap refuses") && error.message.contains(why), "\(error.message)")
        }
        #expect(ContinuousClock.now - started < .seconds(10), "ended at once, not at --timeout")
        #expect(backend.feedbackLog.contains { $0.feedback == .failure } && !backend.feedbackLog.contains { $0.feedback == .success })
        // A stream reports it and goes on to its own end.
        let multi = ScanRun(json: true, multi: true, timeout: 0.5, readers: Self.readers(backend))
        #expect(await Self.status(multi.run) == ExitStatus.ok)
    }

    @Test("scan of a tag that leaves during every read is retried until --timeout: exit 2, never 1")
    func scanLostTagIsNoRefusal() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let tag = try VirtualType2Tag(product: .ntag213, uid: [0x04, 1, 2, 3, 4, 5, 7],
                                      ndef: NDEFMessage(records: [.uri("https://example.com/l")]).encoded())
        _ = backend.place(tag, on: "Virtual A")
        let reader = try #require(backend.reader(named: "Virtual A"))
        reader.plan.reset(leaveFieldAfter: 1)
        let run = ScanRun(json: true, multi: false, timeout: 1.5, readers: Self.readers(backend))
        #expect(await Self.status(run.run) == ExitStatus.noTag)
    }

    /// MIFARE Classic through the reader's Load Keys / General Authenticate (docs/tags-and-readers.md §10).
    @Test("scan reads an NDEF-formatted MIFARE Classic 1K and 4K; write puts a message on it, tear-safely", arguments: [
        MifareClassicLayout.classic1K, .classic4K,
    ])
    func classic(_ layout: MifareClassicLayout) async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let card = VirtualMifareClassic.ndefFormatted(layout, message: try NDEFMessage(records: [.uri("https://example.com/c")]).encoded())
        _ = backend.place(card, on: "Virtual A")
        #expect(await Self.status(ScanRun(json: true, multi: false, timeout: 20, readers: Self.readers(backend)).run) == ExitStatus.ok)
        #expect(backend.feedbackLog.last?.feedback == .success)
        let message = try WriteMessage(uri: "https://example.com/classic-" + String(repeating: "x", count: 80), text: nil, language: "en",
                                       mime: nil, file: nil, ndefFile: nil)
        #expect(await Self.status(WriteRun(message: message, lock: false, json: true, timeout: 20, readers: Self.readers(backend)).run) == ExitStatus.ok)
        let readBack = try MifareClassicTag(link: VirtualMifareClassicLink(card), layout: layout).readNDEF()
        #expect(readBack == message.bytes)
    }

    @Test("a MIFARE Classic sector no known key opens ends a single scan with exit 1, naming the sector")
    func classicUnknownKey() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: try NDEFMessage(records: [.uri("https://example.com/k")]).encoded())
        var trailer = card.block(7)
        trailer.replaceSubrange(0..<6, with: [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC])
        card.setBlock(7, trailer)
        _ = backend.place(card, on: "Virtual A")
        do {
            try await ScanRun(json: true, multi: false, timeout: 20, readers: Self.readers(backend)).run()
            Issue.record("the scan succeeded")
        } catch {
            #expect(error.status == ExitStatus.failure && error.message.contains("sector 1"), "\(error.message)")
        }
    }

    @Test("no reader: exit status 3 with the reason")
    func noReader() async throws {
        let backend = VirtualReaderBackend(readerNames: [])
        let run = ScanRun(json: false, multi: false, timeout: 5, readers: Self.readers(backend))
        #expect(await Self.status(run.run) == ExitStatus.noReader)
    }

    @Test("write refuses an empty request with the usage status before any tag")
    func nothingToWrite() {
        #expect(throws: CLIError.self) {
            _ = try WriteMessage(uri: nil, text: nil, language: "en", mime: nil, file: nil, ndefFile: nil)
        }
        do {
            _ = try WriteMessage(uri: nil, text: nil, language: "en", mime: nil, file: nil, ndefFile: nil)
        } catch let error as CLIError {
            #expect(error.status == ExitStatus.usage)
        } catch {
            Issue.record("not a CLIError: \(error)")
        }
    }
}

/// The rest of the desk flows on events: apdu, scan --multi, write's checks, in-process.
@Suite(.serialized) struct DeskEventRunTests {
    @Test("apdu sends every APDU on one connection and succeeds; a Type 2 tag is refused with exit status 1")
    func apduRuns() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let tag = VirtualType4Tag(version: .v2, ndef: try NDEFMessage(records: [.uri("https://example.com/a")]).encoded())
        _ = backend.place(tag, on: "Virtual A")
        // SELECT the NDEF application, then READ BINARY: both answered on the same card.
        let commands = try ["00A4040007D276000085010100", "00B000000F"].map { hex -> (bytes: [UInt8], apdu: NFCISO7816APDU) in
            let bytes = try #require([UInt8](hex: hex))
            return (bytes, try #require(NFCISO7816APDU(data: Data(bytes))))
        }
        let run = APDURun(commands: commands, json: true, timeout: 120, readers: DeskRunTests.readers(backend))
        #expect(await DeskRunTests.status(run.run) == ExitStatus.ok)

        backend.remove(from: "Virtual A")
        _ = backend.place(VirtualType2Tag.blankNTAG215(), on: "Virtual A")
        let refused = APDURun(commands: commands, json: true, timeout: 120, readers: DeskRunTests.readers(backend))
        #expect(await DeskRunTests.status(refused.run) == ExitStatus.failure)
    }

    @Test("scan --multi ends normally at --timeout (exit 0) after reading the tag present")
    func multiScanEndsAtTheTimeout() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        _ = backend.place(VirtualType4Tag(version: .v2, ndef: try NDEFMessage(records: [.uri("https://example.com/m")]).encoded()),
                          on: "Virtual A")
        let run = ScanRun(json: true, multi: true, timeout: 0.5, readers: DeskRunTests.readers(backend))
        #expect(await DeskRunTests.status(run.run) == ExitStatus.ok)
        // The read tag was confirmed (green) by the verdict.
        #expect(backend.feedbackLog.contains { $0.feedback == .success })
    }

    @Test("write refuses a message larger than the tag, naming both sizes, and leaves the tag as it was")
    func writeTooLarge() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let tag = try VirtualType2Tag(product: .ntag213, uid: [0x04, 1, 2, 3, 4, 5, 6], ndef: NDEFMessage(records: [.uri("https://a.b")]).encoded())
        let before = tag.memory
        _ = backend.place(tag, on: "Virtual A")
        let text = String(repeating: "x", count: 400)
        let message = try WriteMessage(uri: nil, text: text, language: "en", mime: nil, file: nil, ndefFile: nil)
        let run = WriteRun(message: message, lock: false, json: true, timeout: 120, readers: DeskRunTests.readers(backend))
        do {
            try await run.run()
            Issue.record("a 400-byte message was written to an NTAG213")
        } catch {
            #expect(error.status == ExitStatus.failure)
            #expect(error.message.contains("does not fit"))
        }
        #expect(tag.memory == before)
    }
}
