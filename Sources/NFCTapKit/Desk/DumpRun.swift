import CoreNFCLinux
import Foundation
import NFCTags
import RecordOutput
import SafeText

/// One `nfctap dump`: a session like `write`'s that connects to the first single tag, reads its
/// whole memory (`TagDump`) and prints it as Flipper Zero's `.nfc` text, or nfctap's JSON.
package struct DumpRun {
    let json: Bool
    let timeout: Double
    let readers: DeskReaders
    let prompt: Prompt

    package init(json: Bool, timeout: Double, readers: DeskReaders) {
        self.json = json
        self.timeout = timeout
        self.readers = readers
        prompt = Prompt(timeout: timeout > 0 ? timeout : nil)
    }

    /// - Throws: how the command fails (a tag of a family with no dump, a tag that stopped
    ///   answering: exit 1; no tag: 2; no reader: 3; interrupted: 130).
    /// - Returns: the dump printed.
    @discardableResult
    package func run() async throws(CLIError) -> TagDump {
        var configuration = DeskSession.configuration(timeout: timeout, readers: readers, prompt: prompt)
        // One operation reads the whole card: a 4K, or a Classic tried against a long key file,
        // takes far longer than one read. Its removal still ends it at once.
        configuration.operationTimeout = .seconds(300)
        let session = NFCNDEFReaderSession(readWriteWith: configuration, environment: readers.environment)
        var outcome = DeskOutcome()
        var dumped: TagDump?
        let ending = await DeskSession.run(session, prompt: prompt) { event in
            switch event {
            case let .becameActive(readers):
                prompt.start(String(ScanRun.holdMessage(readers.map(\.name)).dropLast()) + " to dump its memory…", status: "waiting for a tag")
            case let .ndefTagsDetected(tags):
                guard tags.count == 1 else {
                    session.alertMessage = "\(tags.count) tags are in the field: remove all but one."
                    session.schedule(after: .milliseconds(500)) { session.restartPolling() }
                    return
                }
                guard !outcome.isDecided else { return }
                let result = await dump(tags[0], in: session)
                outcome.record(result.map { dumped = $0 }, sessionActive: session.isReady)
                session.invalidate()
            default:
                break
            }
        }
        try outcome.end(ending, timeout: timeout)
        guard let dumped else { throw CLIError("the session ended without a dump") }
        return dumped
    }

    private func dump(_ tag: any NFCNDEFTag, in session: NFCNDEFReaderSession) async -> Result<TagDump, CLIError> {
        let dump: TagDump
        do {
            try await session.connect(to: tag)
            dump = try await tag.dumpMemory()
        } catch {
            return .failure(ScanFailure.tagOperation(error))
        }
        prompt.clear()
        if case let .mifareClassic(m) = dump.memory, !m.unreadSectors.isEmpty {
            Stderr.line("nfctap: no key opened sector\(m.unreadSectors.count == 1 ? "" : "s") "
                        + m.unreadSectors.map(String.init).joined(separator: ", ")
                        + " (fully or partly): marked ?? in the dump; give more keys with --keys FILE")
        }
        // Hex and nfctap's own words only: nothing from the tag reaches the terminal as text.
        print(json ? JSONDocument.line(TagDumpJSON.value(dump)) : FlipperNFCFile.text(of: dump), terminator: json ? "\n" : "")
        StandardOutput.flush()
        return .success(dump)
    }
}
