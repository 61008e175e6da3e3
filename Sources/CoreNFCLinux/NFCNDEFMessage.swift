import Foundation
import NDEF

/// Core NFC's `NFCNDEFMessage`: an NDEF message of one or more records.
public class NFCNDEFMessage: NSObject {
    public var records: [NFCNDEFPayload]

    public init(records: [NFCNDEFPayload]) {
        self.records = records
    }

    /// Decodes `data` when it is exactly one complete NDEF message (strict framing: MB on the first
    /// record, ME on the last, nothing after it); nil otherwise. Payloads are not interpreted.
    public convenience init?(data: Data) {
        guard let message = try? NDEFMessage(bytes: [UInt8](data), mode: .strict) else { return nil }
        self.init(records: message.records.map(NFCNDEFPayload.init))
    }

    /// Size of the encoded message in bytes (chunk headers included); 0 when the message cannot be
    /// encoded (no records, or a record NDEF cannot represent).
    public var length: Int {
        (try? encodedBytes().count) ?? 0
    }

    /// The message as NDEF bytes, for writing to a tag. Used by the session layer.
    /// - Throws: `NDEFError.cannotEncode` (no records, TNF 6, oversize type/id, …).
    package func encodedBytes() throws -> [UInt8] {
        try NDEFMessage(records: records.map(\.ndefRecord))
            .encoded(chunkSizes: records.map { $0.chunkSize > 0 ? $0.chunkSize : nil })
    }

    /// Decodes NDEF bytes read from a tag (relaxed mode: what real tags need). Used by the session layer.
    /// - Throws: `NDEFError` when the bytes cannot be decoded even leniently.
    package static func decodeFromTag(_ bytes: [UInt8]) throws -> NFCNDEFMessage {
        let message = try NDEFMessage(bytes: bytes, mode: .relaxed)
        return NFCNDEFMessage(records: message.records.map(NFCNDEFPayload.init))
    }
}
