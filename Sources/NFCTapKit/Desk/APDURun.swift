import CoreNFCLinux
import Dispatch
import Foundation
import NDEF
import NFCTags

/// One `nfctap apdu`: an `NFCTagReaderSession(pollingOption: .iso14443)` that connects to the
/// first ISO 7816 card, sends the APDUs in order, prints each reply, then ends.
// @unchecked: the commands' NFCISO7816APDU objects (not Sendable, as in Apple's Core NFC)
// are immutable once parsed; the rest is immutable or Sendable.
package final class APDURun: NFCTagReaderSessionDelegate, @unchecked Sendable {
    let commands: [(bytes: [UInt8], apdu: NFCISO7816APDU)]
    let json: Bool
    let timeout: Double
    let readers: DeskReaders
    let prompt: Prompt
    let outcome = ScanOutcome()
    /// A card is being talked to: later batches are ignored.
    private let firstTag = FirstTag()

    package init(commands: [(bytes: [UInt8], apdu: NFCISO7816APDU)], json: Bool, timeout: Double, readers: DeskReaders) {
        self.commands = commands
        self.json = json
        self.timeout = timeout
        self.readers = readers
        prompt = Prompt(timeout: timeout > 0 ? timeout : nil)
    }

    /// Runs the session to its end and says how the command ends.
    package func run() -> ScanOutcome.Decision {
        let configuration = DeskSession.configuration(timeout: timeout, readers: readers, prompt: prompt)
        guard let session = NFCTagReaderSession(pollingOption: .iso14443, delegate: self, configuration: configuration,
                                                environment: readers.environment) else {
            return .failure(CLIError("cannot create a tag reader session"))
        }
        return DeskSession.run(session, outcome: outcome, prompt: prompt)
    }

    // MARK: NFCTagReaderSessionDelegate

    package func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
        prompt.start(String(ScanRun.holdMessage(session.readersAtStart.map(\.name)).dropLast()) + " (an ISO 7816 card or Type 4 tag)…",
                     status: "waiting for a card")
    }

    package func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        guard firstTag.take() else { return }
        let card = tags.lazy.compactMap { tag -> (any NFCISO7816Tag)? in
            if case let .iso7816(card) = tag { return card }
            return nil
        }.first
        guard let card else {
            outcome.decide(.failure(CLIError("not an ISO 7816 card: the tag is a Type 2 tag (NTAG / MIFARE Ultralight), "
                                             + "which takes no APDUs; `nfctap scan` reads it")))
            session.invalidate()
            return
        }
        // The card and session objects are not Sendable (as in Apple's Core NFC); their
        // methods are thread-safe, and from here on only this task uses them.
        nonisolated(unsafe) let target = card
        nonisolated(unsafe) let session = session
        Task { await self.exchange(with: target, in: session) }
    }

    package func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        let error = error as? NFCReaderError ?? NFCReaderError(.readerTransceiveErrorTagResponseError, message: "\(error)")
        outcome.sessionEnded(fallback: .failure(ScanFailure.sessionEnded(error, timeout: timeout)))
    }

    // MARK: Exchanging

    private func exchange(with card: any NFCISO7816Tag, in session: NFCTagReaderSession) async {
        do {
            try await session.connect(to: .iso7816(card))
            for command in commands {
                let (data, sw1, sw2) = try await card.sendCommand(apdu: command.apdu)
                output(command: command.bytes, data: [UInt8](data), sw1: sw1, sw2: sw2)
            }
            outcome.decide(.success)
        } catch {
            outcome.decide(.failure(ScanFailure.tagOperation(error)))
        }
        session.invalidate()
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
        print(text)
        StandardOutput.flush()
    }
}
