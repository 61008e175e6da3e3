import ArgumentParser
import CoreNFCLinux
import Foundation
import NDEF
import NFCTapKit
import ReaderCore
import TagEmulation
import ZebraPrinter

/// `nfctap demo`: the desk flow end to end on built-in virtual tags, no hardware.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the desk flow end to end on built-in virtual tags (no reader needed).",
        discussion: """
            An in-process virtual reader ("\(DemoTags.readerName)") and the real sessions, tag
            logic and NDEF codec: reads an NTAG213 with a URL, a Type 4 tag with a text record and a
            Zebra ZQ320 printer tag (showing what `nfctap pair` would do, without pairing), then writes
            a URL to a blank NTAG215 through a read-write session (connect, queryNDEFStatus, writeNDEF)
            and reads it back.

            Tags go to stdout as `scan` prints them (one JSON object per line with --json, plus
            "demoStep" and, for the printer, "pairDryRun"); the narration goes to stderr.
            Pauses between steps unless --fast or stdout is not a terminal. Exit 0 when every step
            gave what it should, 1 otherwise.
            """)

    @Flag(help: "Print each tag as one JSON object per line.")
    var json = false

    @Flag(help: "No pauses between steps (the default when stdout is not a terminal).")
    var fast = false

    @Flag(help: "Log every exchange with the virtual reader to stderr, as --trace does on real readers.")
    var trace = false

    func run() throws {
        if trace { CommandTrace.start() }
        let pause: TimeInterval = fast || isatty(STDOUT_FILENO) == 0 ? 0 : 1.2
        let narrator = DemoNarrator(json: json, pause: pause)
        do {
            try DemoTour(narrator: narrator).run()
        } catch {
            narrator.say("nfctap: error: demo failed: \(error)")
            throw NFCTapExit.failure
        }
    }
}

/// The steps of `nfctap demo`, over one virtual reader.
struct DemoTour {
    let narrator: DemoNarrator
    let backend = VirtualReaderBackend(readerNames: [DemoTags.readerName])

    var environment: NFCReaderEnvironment {
        let backend = self.backend
        // Its own slot: the demo's sessions never compete with another session of the process.
        return NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() },
                                    slot: NFCSessionSlot())
    }

    func run() throws {
        let reader = DemoTags.readerName
        narrator.say("nfctap demo: a virtual \(reader) with built-in tags, read and written by the real sessions and tag logic.")
        let alert: @Sendable (String) -> Void = { [narrator] in narrator.say($0) }

        let session = DemoReadSession(environment: environment, alert: alert)
        session.begin(prompt: "Hold a tag near \(reader)…")
        defer { session.end() }

        narrator.say("\n[1/4] Placing an NTAG213 with \(DemoTags.url) on the reader")
        let url = try tap(DemoTags.urlTag(), session: session)
        try expect(url, uri: DemoTags.url)
        narrator.show(url, extra: [("demoStep", .string("url"))])
        narrator.wait()

        narrator.say("\n[2/4] Placing a Type 4 tag with the text \"\(DemoTags.text)\" (\(DemoTags.textLanguage)) on the reader")
        let text = try tap(DemoTags.textTag(), session: session)
        let (readText, _) = text.message?.records.first?.wellKnownTypeTextPayload() ?? (nil, nil)
        guard readText == DemoTags.text else { throw DemoError("the Type 4 tag read back \(String(describing: readText))") }
        narrator.show(text, extra: [("demoStep", .string("text"))])
        narrator.wait()

        narrator.say("\n[3/4] Placing a Zebra ZQ320 printer's tag on the reader")
        let zebra = try tap(DemoTags.zebraTag(), session: session)
        let identity = try printerIdentity(zebra)
        let pairing = DemoPairing.dryRun(identity)
        narrator.show(zebra, extra: [("demoStep", .string("zebra")), ("pairDryRun", .string(pairing))])
        narrator.say("nfctap pair \(pairing) (dry run: nothing was paired)")
        narrator.wait()
        session.end()

        narrator.say("\n[4/4] Placing a blank NTAG215 and writing \(DemoTags.writtenURL) through a read-write session")
        guard let payload = NFCNDEFPayload.wellKnownTypeURIPayload(string: DemoTags.writtenURL) else {
            throw DemoError("cannot encode \(DemoTags.writtenURL)")
        }
        let writer = DemoWriteSession(environment: environment, message: NFCNDEFMessage(records: [payload]),
                                      narrate: alert)
        _ = try writer.run(prompt: "Hold the blank tag near \(reader) to write it…", timeout: DemoStep.timeout) { [backend] in
            backend.place(DemoTags.blankTag(), on: reader)
        }
        narrator.say("Reading it back")
        let check = DemoReadSession(environment: environment, alert: alert)
        check.begin(prompt: "")
        defer { check.end() }
        let written = try check.nextReport(timeout: DemoStep.timeout)
        try expect(written, uri: DemoTags.writtenURL)
        narrator.show(written, extra: [("demoStep", .string("written"))])
        backend.remove(from: reader)

        narrator.say("""

            Demo complete on \(reader): 3 tags read (URL, text, Zebra printer \(identity.serial)), \
            1 blank tag written and read back.
            With a real reader: nfctap scan, nfctap inventory, nfctap pair.
            """)
    }

    /// Places `tag`, returns its report, takes it off again.
    private func tap(_ tag: VirtualTag, session: DemoReadSession) throws -> NFCTagReport {
        backend.place(tag, on: DemoTags.readerName)
        defer { backend.remove(from: DemoTags.readerName) }
        let report = try session.nextReport(timeout: DemoStep.timeout)
        if let error = report.error { throw DemoError("reading the tag failed: \(error.localizedDescription)") }
        return report
    }

    private func expect(_ report: NFCTagReport, uri: String) throws {
        let read = report.message?.records.first?.wellKnownTypeURIPayload()?.absoluteString
        guard read == uri else { throw DemoError("expected \(uri) on the tag, read \(read ?? "nothing")") }
    }

    private func printerIdentity(_ report: NFCTagReport) throws -> PrinterIdentity {
        guard let message = report.ndefMessage, let identity = try ZebraTag.identity(from: message) else {
            throw DemoError("the ZQ320 tag was not recognized as a Zebra printer's")
        }
        return identity
    }
}
