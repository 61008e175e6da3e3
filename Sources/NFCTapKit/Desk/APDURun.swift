import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import RecordOutput

/// One `nfctap apdu`: an `NFCTagReaderSession(pollingOption: .iso14443)` (its tags come as
/// `.tagsDetected` events) that connects to the first ISO 7816 card, sends the APDUs in order,
/// prints each reply, then ends.
package struct APDURun {
    let commands: [(bytes: [UInt8], apdu: NFCISO7816APDU)]
    let json: Bool
    let timeout: Double
    let readers: DeskReaders
    let prompt: Prompt

    package init(commands: [(bytes: [UInt8], apdu: NFCISO7816APDU)], json: Bool, timeout: Double, readers: DeskReaders) {
        self.commands = commands
        self.json = json
        self.timeout = timeout
        self.readers = readers
        prompt = Prompt(timeout: timeout > 0 ? timeout : nil)
    }

    /// Runs the session to its end.
    /// - Throws: how the command fails (the card left, a Type 2 tag: exit 1; no card: 2; no reader: 3; interrupted: 130).
    package func run() async throws(CLIError) {
        let configuration = DeskSession.configuration(timeout: timeout, readers: readers, prompt: prompt)
        guard let session = NFCTagReaderSession(pollingOption: .iso14443, configuration: configuration,
                                                environment: readers.environment) else {
            throw CLIError("cannot create a tag reader session")
        }
        var outcome = DeskOutcome()
        let ending = await DeskSession.run(session, prompt: prompt) { event in
            switch event {
            case let .becameActive(readers):
                prompt.start(String(ScanRun.holdMessage(readers.map(\.name)).dropLast()) + " (an ISO 7816 card or Type 4 tag)…",
                             status: "waiting for a card")
            case let .tagsDetected(tags):
                guard !outcome.isDecided else { return }
                let card = tags.lazy.compactMap { tag -> (any NFCISO7816Tag)? in
                    if case let .iso7816(card) = tag { return card }
                    return nil
                }.first
                guard let card else {
                    outcome.fail(CLIError("not an ISO 7816 card: the tag is a Type 2 tag (NTAG / MIFARE Ultralight), "
                                         + "which takes no APDUs; `nfctap scan` reads it"))
                    session.invalidate()
                    return
                }
                outcome.record(await exchange(with: card, in: session), sessionActive: session.isReady)
                session.invalidate()
            default:
                break
            }
        }
        try outcome.end(ending, timeout: timeout)
    }

    // MARK: Exchanging

    private func exchange(with card: any NFCISO7816Tag, in session: NFCTagReaderSession) async -> Result<Void, CLIError> {
        do {
            try await session.connect(to: .iso7816(card))
            for command in commands {
                let (data, sw1, sw2) = try await card.sendCommand(apdu: command.apdu)
                output(command: command.bytes, data: [UInt8](data), sw1: sw1, sw2: sw2)
            }
            return .success(())
        } catch {
            return .failure(ScanFailure.tagOperation(error))
        }
    }

    private func output(command: [UInt8], data: [UInt8], sw1: UInt8, sw2: UInt8) {
        let text: String
        if json {
            text = JSONDocument.line(.object([
                ("apdu", .string(command.hexString)),
                ("data", .string(data.hexString)),
                ("sw", .string([sw1, sw2].hexString)),
                ("status", .string(statusWordText(sw1, sw2))),
            ]))
        } else {
            let reply = data.isEmpty ? statusWordText(sw1, sw2) : data.hexString(separator: " ") + " " + statusWordText(sw1, sw2)
            text = "> \(command.hexString(separator: " "))\n< \(reply)"
        }
        prompt.clear()
        Stdout.line(text)
        StandardOutput.flush()
    }
}
