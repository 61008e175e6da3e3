import Foundation
import NDEF

/// Core NFC's `NFCNDEFPayload`: one NDEF record (TNF, type, identifier, payload).
/// The helpers build and read URI (`U`) and Text (`T`) records with the NDEF codec.
///
/// As on iOS it is an `NSObject` adopting `NSSecureCoding` and `NSCopying`. The designated
/// initializers are `required`, so subclasses inherit them and `class func … -> Self?`
/// factories can call `.init(format:type:identifier:payload:)`.
open class NFCNDEFPayload: NSObject, NSSecureCoding, NSCopying {
    open var typeNameFormat: NFCTypeNameFormat
    open var type: Data
    open var identifier: Data
    open var payload: Data
    /// Payload bytes per chunk when the record is written; 0: not chunked.
    let chunkSize: Int

    /// A record with no chunking (Apple: chunks only past 2³²−1 bytes, which NDEF cannot hold).
    public required init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
        self.chunkSize = 0
    }

    /// A record written in chunks of `chunkSize` payload bytes (NDEF CF flag); 0 means no chunking.
    public required init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data, chunkSize: Int) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
        self.chunkSize = max(0, chunkSize)
    }

    /// A well-known URI record (`U`) for `uri`, its prefix abbreviated with the longest matching
    /// URI identifier code. Returns nil for an empty string.
    open class func wellKnownTypeURIPayload(string uri: String) -> Self? {
        guard !uri.isEmpty else { return nil }
        return make(URIRecord(uri: uri).record())
    }

    /// A well-known URI record (`U`) for `url.absoluteString`.
    open class func wellKnownTypeURIPayload(url: URL) -> Self? {
        wellKnownTypeURIPayload(string: url.absoluteString)
    }

    /// A well-known Text record (`T`), UTF-8, in the language of `locale` as a BCP 47 tag
    /// (`en_US` → `en-US`). Returns nil when the tag is empty, longer than 63 bytes or not ASCII.
    open class func wellKnownTypeTextPayload(string text: String, locale: Locale) -> Self? {
        let language = languageTag(locale)
        guard let record = try? TextRecord(text: text, language: language).record() else { return nil }
        return make(record)
    }

    /// The URL of a well-known URI record (read leniently, like a tag), nil for any other record
    /// or a URI that `URL(string:)` does not accept.
    open func wellKnownTypeURIPayload() -> URL? {
        guard let uri = try? URIRecord(record: ndefRecord, mode: .relaxed) else { return nil }
        return URL(string: uri.uri)
    }

    /// The text and locale of a well-known Text record (read leniently), `(nil, nil)` for any other
    /// record; the locale is nil when the record has no language code.
    open func wellKnownTypeTextPayload() -> (String?, Locale?) {
        guard let text = try? TextRecord(record: ndefRecord, mode: .relaxed) else { return (nil, nil) }
        return (text.text, text.language.isEmpty ? nil : Locale(identifier: text.language))
    }

    /// BCP 47 language tag of a locale identifier: `en_US@calendar=x` → `en-US`.
    static func languageTag(_ locale: Locale) -> String {
        let identifier = locale.identifier.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return identifier.replacingOccurrences(of: "_", with: "-")
    }

    /// An instance of the receiving class holding `record`.
    private class func make(_ record: NDEFRecord) -> Self {
        self.init(format: NFCTypeNameFormat(record.tnf), type: Data(record.type),
                  identifier: Data(record.id), payload: Data(record.payload))
    }

    // MARK: NSObject

    /// Equal when TNF, type, identifier and payload are (chunking is how it is written, not what).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NFCNDEFPayload else { return false }
        return typeNameFormat == other.typeNameFormat && type == other.type
            && identifier == other.identifier && payload == other.payload
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(typeNameFormat)
        hasher.combine(type)
        hasher.combine(identifier)
        hasher.combine(payload)
        return hasher.finalize()
    }

    open override var description: String {
        func hex(_ data: Data) -> String { [UInt8](data).hexString }
        return "<NFCNDEFPayload: TNF=\(typeNameFormat.rawValue), type=\(hex(type)), identifier=\(hex(identifier)), payload=\(hex(payload))>"
    }

    // MARK: NSCopying

    open func copy(with zone: NSZone? = nil) -> Any {
        Swift.type(of: self).init(format: typeNameFormat, type: type, identifier: identifier, payload: payload,
                                  chunkSize: chunkSize)
    }

    // MARK: NSSecureCoding

    public class var supportsSecureCoding: Bool { true }

    private enum Key {
        static let format = "typeNameFormat"
        static let type = "type"
        static let identifier = "identifier"
        static let payload = "payload"
        static let chunkSize = "chunkSize"
    }

    open func encode(with coder: NSCoder) {
        coder.encode(Int(typeNameFormat.rawValue), forKey: Key.format)
        Self.encode(type, into: coder, forKey: Key.type)
        Self.encode(identifier, into: coder, forKey: Key.identifier)
        Self.encode(payload, into: coder, forKey: Key.payload)
        coder.encode(chunkSize, forKey: Key.chunkSize)
    }

    /// nil when the archive lacks a field or holds a TNF outside 0…6.
    public required init?(coder: NSCoder) {
        let keys = [Key.format, Key.type, Key.identifier, Key.payload]
        guard keys.allSatisfy(coder.containsValue(forKey:)) else { return nil }
        let rawFormat = coder.decodeInteger(forKey: Key.format)
        guard (0...6).contains(rawFormat), let format = NFCTypeNameFormat(rawValue: UInt8(rawFormat)) else { return nil }
        self.typeNameFormat = format
        self.type = Self.decodeData(from: coder, forKey: Key.type)
        self.identifier = Self.decodeData(from: coder, forKey: Key.identifier)
        self.payload = Self.decodeData(from: coder, forKey: Key.payload)
        self.chunkSize = max(0, coder.decodeInteger(forKey: Key.chunkSize))
    }

    /// Bytes as a primitive value: no class to look up when decoding, so nothing for secure
    /// decoding to reject.
    private static func encode(_ data: Data, into coder: NSCoder, forKey key: String) {
        let bytes = [UInt8](data)
        bytes.withUnsafeBufferPointer { buffer in
            coder.encodeBytes(buffer.baseAddress, length: buffer.count, forKey: key)
        }
    }

    private static func decodeData(from coder: NSCoder, forKey key: String) -> Data {
        coder.withDecodedUnsafeBufferPointer(forKey: key) { buffer in buffer.map { Data($0) } ?? Data() }
    }
}

extension NFCNDEFPayload {
    /// A payload holding `record` (not chunked).
    package convenience init(_ record: NDEFRecord) {
        self.init(format: NFCTypeNameFormat(record.tnf), type: Data(record.type),
                  identifier: Data(record.id), payload: Data(record.payload))
    }

    /// The record in the codec's terms.
    package var ndefRecord: NDEFRecord {
        NDEFRecord(tnf: typeNameFormat.ndef, type: [UInt8](type), id: [UInt8](identifier), payload: [UInt8](payload))
    }
}
