import Foundation
import NDEF

/// Core NFC's `NFCNDEFMessage`: an NDEF message of one or more records. An `NSObject` adopting
/// `NSSecureCoding` and `NSCopying`, as on iOS.
open class NFCNDEFMessage: NSObject, NSSecureCoding, NSCopying {
    open var records: [NFCNDEFPayload]

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
    open var length: Int {
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
        NFCNDEFMessage(decoded: try NDEFMessage(bytes: bytes, mode: .relaxed))
    }

    /// Core NFC's message for one the session decoded (no parsing: the records are copied over).
    package convenience init(decoded message: NDEFMessage) {
        self.init(records: message.records.map(NFCNDEFPayload.init))
    }

    // MARK: NSObject

    /// Equal when the records are, in order.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NFCNDEFMessage else { return false }
        return records == other.records
    }

    open override var hash: Int { records.map(\.hash).reduce(records.count) { $0 &* 31 &+ $1 } }

    open override var description: String {
        "<NFCNDEFMessage: \(records.count) record(s), length \(length)>"
    }

    // MARK: NSCopying

    /// A message holding copies of the records.
    open func copy(with zone: NSZone? = nil) -> Any {
        NFCNDEFMessage(records: records.map { $0.copy() as? NFCNDEFPayload ?? $0 })
    }

    // MARK: NSSecureCoding

    public class var supportsSecureCoding: Bool { true }

    private static let recordCountKey = "recordCount"
    private static func recordKey(_ index: Int) -> String { "record.\(index)" }

    open func encode(with coder: NSCoder) {
        coder.encode(records.count, forKey: Self.recordCountKey)
        for (index, record) in records.enumerated() {
            coder.encode(record, forKey: Self.recordKey(index))
        }
    }

    /// nil when the archive lacks a record or holds one that does not decode.
    public required init?(coder: NSCoder) {
        guard coder.containsValue(forKey: Self.recordCountKey) else { return nil }
        let count = coder.decodeInteger(forKey: Self.recordCountKey)
        guard count >= 0, count <= 65536 else { return nil }
        var records: [NFCNDEFPayload] = []
        records.reserveCapacity(count)
        for index in 0..<count {
            let key = Self.recordKey(index)
            guard coder.containsValue(forKey: key),
                  let record = coder.decodeObject(of: NFCNDEFPayload.self, forKey: key) else { return nil }
            records.append(record)
        }
        self.records = records
    }
}
