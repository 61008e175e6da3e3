import CoreNFCLinux
import Foundation
import NDEF
import ReaderCore
import TagEmulation
import ZebraPrinter

/// The steps of `nfctap demo`, over one virtual reader.
package struct DemoTour {
    /// `nfctap demo`: the tour, paused between steps unless `fast` or stdout is not a terminal.
    /// - Throws: `CLIError` (exit 1, already said on stderr) when a step did not give what it should.
    package static func run(json: Bool, fast: Bool) async throws(CLIError) {
        let pause: TimeInterval = fast || isatty(STDOUT_FILENO) == 0 ? 0 : 1.2
        let narrator = DemoNarrator(json: json, pause: pause)
        do {
            try await DemoTour(narrator: narrator).run()
        } catch {
            narrator.say("nfctap: error: demo failed: \(error)")
            throw CLIError.reported(status: ExitStatus.failure)
        }
    }

    let narrator: DemoNarrator
    /// The ACR122U, and an ISO 15693 reader beside it (the ACR122U has no ISO 15693 radio).
    let backend: VirtualReaderBackend = {
        let backend = VirtualReaderBackend(readerNames: [DemoTags.readerName])
        backend.addReader(DemoTags.vicinityReaderName, profile: .omnikey)
        return backend
    }()

    var environment: NFCReaderEnvironment {
        let backend = self.backend
        // Its own slot: the demo's sessions never compete with another session of the process.
        return NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() },
                                    slot: NFCSessionSlot())
    }

    private func run() async throws {
        let reader = DemoTags.readerName
        narrator.say("nfctap demo: a virtual \(reader) with built-in tags, read and written by the real sessions and tag logic.")
        let alert: @Sendable (String) -> Void = { [narrator] in narrator.say($0) }

        var session = try await DemoReader(environment: environment, alert: alert, prompt: "Hold a tag near \(reader)…")
        let identity: PrinterIdentity
        do {
            identity = try await readTags(&session)
        } catch {
            await session.end()
            throw error
        }
        await session.end()

        narrator.say("\n[6/6] Placing a blank NTAG215 and writing \(DemoTags.writtenURL) through a read-write session")
        guard let payload = NFCNDEFPayload.wellKnownTypeURIPayload(string: DemoTags.writtenURL) else {
            throw DemoError("cannot encode \(DemoTags.writtenURL)")
        }
        _ = try await DemoWriter.write(NFCNDEFMessage(records: [payload]), environment: environment, narrate: alert,
                                       prompt: "Hold the blank tag near \(reader) to write it…", timeout: DemoStep.timeout) { [backend] in
            backend.place(DemoTags.blankTag(), on: reader)
        }
        narrator.say("Reading it back")
        var check = try await DemoReader(environment: environment, alert: alert, prompt: "")
        let written: NFCTagReport
        do {
            written = try await check.nextReport(timeout: DemoStep.timeout)
        } catch {
            await check.end()
            throw error
        }
        try expect(written, uri: DemoTags.writtenURL)
        narrator.show(written, extra: [("demoStep", .string("written"))])
        backend.remove(from: reader)
        await check.end()

        narrator.say("""

            Demo complete: 5 tags read (URL, text, Zebra printer \(identity.serial), MIFARE Classic 1K, \
            ICODE SLIX2), 1 blank tag written and read back.
            With a real reader: nfctap scan, nfctap inventory, nfctap pair.
            """)
    }

    /// Steps 1 to 3 on one read session; the Zebra printer's identity.
    private func readTags(_ session: inout DemoReader) async throws -> PrinterIdentity {
        narrator.say("\n[1/6] Placing an NTAG213 with \(DemoTags.url) on the reader")
        let url = try await tap(DemoTags.urlTag(), session: &session)
        try expect(url, uri: DemoTags.url)
        narrator.show(url, extra: [("demoStep", .string("url"))])
        await narrator.wait()

        narrator.say("\n[2/6] Placing a Type 4 tag with the text \"\(DemoTags.text)\" (\(DemoTags.textLanguage)) on the reader")
        let text = try await tap(DemoTags.textTag(), session: &session)
        let (readText, _) = text.message?.records.first?.wellKnownTypeTextPayload() ?? (nil, nil)
        guard readText == DemoTags.text else { throw DemoError("the Type 4 tag read back \(String(describing: readText))") }
        narrator.show(text, extra: [("demoStep", .string("text"))])
        await narrator.wait()

        narrator.say("\n[3/6] Placing a Zebra ZQ320 printer's tag on the reader")
        let zebra = try await tap(DemoTags.zebraTag(), session: &session)
        let identity = try printerIdentity(zebra)
        let pairing = DemoPairing.dryRun(identity)
        narrator.show(zebra, extra: [("demoStep", .string("zebra")), ("pairDryRun", .string(pairing))])
        narrator.say("nfctap pair \(pairing) (dry run: nothing was paired)")
        await narrator.wait()

        narrator.say("\n[4/6] Placing a MIFARE Classic 1K with \(DemoTags.classicURL) (NDEF through its MAD, keys loaded by the reader)")
        let classic = try await tap(DemoTags.classicTag(), session: &session)
        try expect(classic, uri: DemoTags.classicURL)
        narrator.show(classic, extra: [("demoStep", .string("classic"))])
        await narrator.wait()

        narrator.say("\n[5/6] Placing an ICODE SLIX2 (ISO 15693) with \(DemoTags.vicinityURL) on \(DemoTags.vicinityReaderName)")
        let vicinity = try await tap(DemoTags.vicinityTag(), session: &session, reader: DemoTags.vicinityReaderName)
        try expect(vicinity, uri: DemoTags.vicinityURL)
        narrator.show(vicinity, extra: [("demoStep", .string("iso15693"))])
        await narrator.wait()
        return identity
    }

    /// Places `tag` (on the ACR122U unless told), returns its report, takes it off again.
    private func tap(_ tag: VirtualTag, session: inout DemoReader, reader: String = DemoTags.readerName) async throws -> NFCTagReport {
        backend.place(tag, on: reader)
        defer { backend.remove(from: reader) }
        let report = try await session.nextReport(timeout: DemoStep.timeout)
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
