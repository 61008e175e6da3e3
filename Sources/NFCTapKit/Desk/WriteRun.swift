import SafeText
import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import RecordOutput

/// One `nfctap write`: a read-write `NFCNDEFReaderSession` (its tags come as
/// `.ndefTagsDetected` events) that connects to the first single tag, checks its status and
/// capacity, writes, reads back and compares, optionally locks, then ends.
package struct WriteRun {
    let message: WriteMessage
    let lock: Bool
    /// Make a blank MIFARE Classic NDEF-ready first (`--format`).
    let format: Bool
    let json: Bool
    let timeout: Double
    let readers: DeskReaders
    let prompt: Prompt

    package init(message: WriteMessage, lock: Bool, format: Bool = false, json: Bool, timeout: Double, readers: DeskReaders) {
        self.message = message
        self.lock = lock
        self.format = format
        self.json = json
        self.timeout = timeout
        self.readers = readers
        prompt = Prompt(timeout: timeout > 0 ? timeout : nil)
    }

    /// Runs the session to its end.
    /// - Throws: how the command fails (the tag refused the write: exit 1; no tag: 2; no reader: 3; interrupted: 130).
    package func run() async throws(CLIError) {
        let configuration = DeskSession.configuration(timeout: timeout, readers: readers, prompt: prompt)
        let session = NFCNDEFReaderSession(readWriteWith: configuration, environment: readers.environment)
        var outcome = DeskOutcome()
        let ending = await DeskSession.run(session, prompt: prompt) { event in
            switch event {
            case let .becameActive(readers):
                var text = String(ScanRun.holdMessage(readers.map(\.name)).dropLast()) + " to write \(message.bytes.count) bytes"
                if lock { text += " and lock it for good" }
                prompt.start(text + "…", status: "waiting for a tag")
            case let .ndefTagsDetected(tags):
                guard tags.count == 1 else {
                    // Apple's sample: ask for one tag, then look again.
                    session.alertMessage = "\(tags.count) tags are in the field: remove all but one."
                    session.schedule(after: .milliseconds(500)) { session.restartPolling() }
                    return
                }
                guard !outcome.isDecided else { return }  // the tag seen again after the write
                outcome.record(await write(to: tags[0], in: session), sessionActive: session.isReady)
                session.invalidate()
            default:
                break
            }
        }
        try outcome.end(ending, timeout: timeout)
    }

    // MARK: Writing

    /// Connects, checks, writes, verifies and locks; how it went.
    private func write(to tag: any NFCNDEFTag, in session: NFCNDEFReaderSession) async -> Result<Void, CLIError> {
        var capacity: Int?
        do {
            try await session.connect(to: tag)
            // As the reader reported it (UID, technology, reader name), for the result line.
            let connected = session.connectedDetectedTag.map { (uid: $0.uid, type: $0.technology.rawValue, reader: $0.reader.name) }
            var (status, size) = try await tag.queryNDEFStatus()
            // A blank ISO 15693 tag gets a Type 5 CC first (docs/tags-and-readers.md §7.6).
            if status == .notSupported, try await tag.formatBlankType5Tag() {
                (status, size) = try await tag.queryNDEFStatus()
            }
            let isClassic = session.connectedDetectedTag?.technology == .mifareClassic
            if status == .notSupported, format, isClassic, try await tag.formatBlankMifareClassic() {
                prompt.message("Formatted the blank MIFARE Classic for NDEF: the MAD, the NFC Forum keys, NXP's access bits (key B kept).", .yellow)
                (status, size) = try await tag.queryNDEFStatus()
            }
            capacity = size
            switch status {
            case .notSupported:
                if isClassic, !format {
                    throw CLIError("the MIFARE Classic is not NDEF formatted: `nfctap write --format` makes a blank one NDEF-ready (nothing was written)")
                }
                throw CLIError("the tag is not NDEF formatted (nfctap formats blank ISO 15693 tags, and blank MIFARE Classic cards with --format)")
            case .readOnly:
                throw CLIError("the tag is read-only")
            case .readWrite:
                break
            }
            guard message.bytes.count <= size else { throw ScanFailure.tooSmall(size: message.bytes.count, capacity: size) }
            // Whether (and how) the tag can be locked is known before the first byte is written.
            var lockKind = NDEFLockKind.permanent
            if lock {
                do {
                    lockKind = try await tag.lockKind()
                } catch {
                    throw CLIError("this tag cannot be locked through this reader, so nothing was written: "
                                   + ScanFailure.tagOperation(error).message)
                }
            }
            do {
                try await tag.writeNDEF(message.message)
            } catch let error as NFCReaderError where error.code != .readerTransceiveErrorTagConnectionLost {
                // The tag still answers: read it back and say what it holds now.
                let base = ScanFailure.tagOperation(error, size: message.bytes.count, capacity: size).message
                throw CLIError("\(base); \(await holdingNow(tag)): hold it still and run write again")
            }
            try await verify(tag)
            if lock {
                switch lockKind {
                case .permanent:
                    prompt.message("Locking the tag: this is permanent, it can never be written again.", .yellow)
                case let .reversible(why):
                    prompt.message("Locking the tag: it will report itself read-only (\(why)).", .yellow)
                }
                do {
                    try await tag.writeLock()
                    let (after, _) = try await tag.queryNDEFStatus()
                    guard after == .readOnly else { throw CLIError("the tag still reports itself writable") }
                } catch {
                    let why = (error as? CLIError)?.message ?? ScanFailure.tagOperation(error).message
                    throw CLIError("the message was written and verified, but locking failed: \(why)")
                }
            }
            report(capacity: size, tag: connected)
            return .success(())
        } catch let error as CLIError {
            return .failure(error)
        } catch {
            return .failure(ScanFailure.tagOperation(error, size: message.bytes.count, capacity: capacity, writing: true))
        }
    }

    /// What the tag holds after a failed write (`ScanFailure.holding`).
    private func holdingNow(_ tag: any NFCNDEFTag) async -> String {
        let readBack: Result<NFCNDEFMessage, any Error>
        do { readBack = .success(try await tag.readNDEF()) } catch { readBack = .failure(error) }
        return ScanFailure.holding(after: readBack, isNew: message.matches)
    }

    /// Reads the message back and compares it with what was written.
    /// - Throws: `CLIError` for a different message, or when it cannot be read back.
    private func verify(_ tag: any NFCNDEFTag) async throws {
        let readBack: NFCNDEFMessage
        do {
            readBack = try await tag.readNDEF()
        } catch {
            throw CLIError("the message was written but could not be read back to check it: "
                           + ScanFailure.tagOperation(error).message)
        }
        guard message.matches(readBack) else {
            let read = (try? readBack.encodedBytes().hexString) ?? "an undecodable message"
            throw CLIError("the tag does not hold what was written: wrote \(message.bytes.hexString), read back \(read)")
        }
    }

    /// - Parameter tag: the connected tag as its reader reported it.
    private func report(capacity: Int, tag: (uid: [UInt8], type: String, reader: String)?) {
        let text: String
        if json {
            var fields: [(String, JSONValue)] = [
                ("written", .int(message.bytes.count)),
                ("capacity", .int(capacity)),
                ("locked", .bool(lock)),
                ("uid", tag.map { .string($0.uid.hexString) } ?? .null),
                ("type", tag.map { .string($0.type) } ?? .null),
                ("reader", tag.map { .string($0.reader) } ?? .null),
            ]
            if let id = message.homeAssistantTag { fields.append(("haTag", .string(id))) }
            text = JSONDocument.line(.object(fields))
        } else {
            var line = "Wrote \(message.bytes.count) bytes (\(message.summary))"
            if let tag { line += " to UID \(tag.uid.hexString(separator: ":")) on \(tag.reader)" }
            line += ", capacity \(capacity) bytes" + (lock ? "; the tag is now read-only" : "")
            text = SafeText.escaped(line)
        }
        prompt.clear()
        Stdout.line(text)
        StandardOutput.flush()
    }
}
