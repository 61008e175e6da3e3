import CoreNFCLinux
import Foundation
import NDEF
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
