import SafeText
import CoreNFCLinux
import Foundation
import NDEF

/// The message `nfctap write` puts on the tag, built from its options before any tag is awaited.
package struct WriteMessage {
    /// What the session writes.
    package var message: NFCNDEFMessage
    /// Its encoding: what lands in the NDEF TLV / NDEF file.
    package var bytes: [UInt8]
    /// One line for people: `URI https://…`.
    package var summary: String
    /// The id when the message is a Home Assistant tag (`HomeAssistantTag`).
    package var homeAssistantTag: String?

    /// Largest file `--file` / `--ndef-file` reads: far above any tag's capacity.
    static let maxFileBytes = 1 << 20

    /// - Throws: `CLIError` (exit 1) for an unreadable or oversized file, a malformed `--ndef-file`,
    ///   a Text language or MIME type NDEF cannot encode.
    package init(uri: String?, text: String?, language: String, mime: String?, file: String?, ndefFile: String?) throws {
        let record: NDEFRecord
        if let uri {
            record = .uri(uri)
        } else if let text {
            do {
                record = try .text(text, language: language)
            } catch {
                throw CLIError("cannot encode the text record: \(error)")
            }
        } else if let mime, let file {
            let payload = try Self.read(file)
            do {
                record = try MediaRecord(mediaType: mime, payload: payload).record()
            } catch {
                throw CLIError("cannot encode a MIME record of type \"\(SafeText.escaped(mime))\": \(error)")
            }
        } else if let ndefFile {
            let bytes = try Self.read(ndefFile)
            let decoded: NDEFMessage
            do {
                decoded = try NDEFMessage(bytes: bytes, mode: .strict)
            } catch {
                throw CLIError("\(ndefFile) is not one well-formed NDEF message: \(SafeText.escaped(String(describing: error)))")
            }
            try self.init(decoded)
            return
        } else {
            throw CLIError("nothing to write", status: ExitStatus.usage)
        }
        try self.init(NDEFMessage(records: [record]))
    }

    private init(_ message: NDEFMessage) throws {
        let encoded: [UInt8]
        do {
            encoded = try message.encoded()
        } catch {
            throw CLIError("cannot encode the message: \(error)")
        }
        // Core NFC's message type, from the same bytes (strict: exactly one complete message).
        guard let coreMessage = NFCNDEFMessage(data: Data(encoded)) else {
            throw CLIError("cannot encode the message as one NDEF message")
        }
        self.message = coreMessage
        self.bytes = (try? coreMessage.encodedBytes()) ?? encoded
        self.summary = (try? NDEFText.lines(message, mode: .relaxed).joined(separator: "; ")) ?? "\(encoded.count) bytes"
        self.homeAssistantTag = HomeAssistantTag.id(in: message)
    }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError("cannot read \(path)") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maxFileBytes + 1)) ?? Data()
        guard data.count <= maxFileBytes else { throw CLIError("\(path) is larger than \(maxFileBytes) bytes: no tag holds that") }
        return [UInt8](data)
    }

    /// True when `other` has the same records as this message (TNF, type, ID, payload, in order).
    func matches(_ other: NFCNDEFMessage) -> Bool {
        let mine = message.records, theirs = other.records
        return mine.count == theirs.count && zip(mine, theirs).allSatisfy { a, b in
            a.typeNameFormat == b.typeNameFormat && a.type == b.type && a.identifier == b.identifier && a.payload == b.payload
        }
    }
}
