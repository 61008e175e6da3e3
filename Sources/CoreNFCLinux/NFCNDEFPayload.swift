import Foundation
import NDEF

/// Core NFC's `NFCNDEFPayload`: one NDEF record (TNF, type, identifier, payload).
/// The helpers build and read URI (`U`) and Text (`T`) records with the NDEF codec.
public class NFCNDEFPayload: NSObject {
    public var typeNameFormat: NFCTypeNameFormat
    public var type: Data
    public var identifier: Data
    public var payload: Data
    /// Payload bytes per chunk when the record is written; 0: not chunked.
    let chunkSize: Int

    /// A record with no chunking (Apple: chunks only past 2³²−1 bytes, which NDEF cannot hold).
    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
        self.chunkSize = 0
    }

    /// A record written in chunks of `chunkSize` payload bytes (NDEF CF flag); 0 means no chunking.
    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data, chunkSize: Int) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
        self.chunkSize = max(0, chunkSize)
    }

    /// A well-known URI record (`U`) for `uri`, its prefix abbreviated with the longest matching
    /// URI identifier code. Returns nil for an empty string.
    public class func wellKnownTypeURIPayload(string uri: String) -> NFCNDEFPayload? {
        guard !uri.isEmpty else { return nil }
        return NFCNDEFPayload(URIRecord(uri: uri).record())
    }

    /// A well-known URI record (`U`) for `url.absoluteString`.
    public class func wellKnownTypeURIPayload(url: URL) -> NFCNDEFPayload? {
        wellKnownTypeURIPayload(string: url.absoluteString)
    }

    /// A well-known Text record (`T`), UTF-8, in the language of `locale` as a BCP 47 tag
    /// (`en_US` → `en-US`). Returns nil when the tag is empty, longer than 63 bytes or not ASCII.
    public class func wellKnownTypeTextPayload(string text: String, locale: Locale) -> NFCNDEFPayload? {
        let language = Self.languageTag(locale)
        guard let record = try? TextRecord(text: text, language: language).record() else { return nil }
        return NFCNDEFPayload(record)
    }

    /// The URL of a well-known URI record (read leniently, like a tag), nil for any other record
    /// or a URI that `URL(string:)` does not accept.
    public func wellKnownTypeURIPayload() -> URL? {
        guard let uri = try? URIRecord(record: ndefRecord, mode: .relaxed) else { return nil }
        return URL(string: uri.uri)
    }

    /// The text and locale of a well-known Text record (read leniently), `(nil, nil)` for any other
    /// record; the locale is nil when the record has no language code.
    public func wellKnownTypeTextPayload() -> (String?, Locale?) {
        guard let text = try? TextRecord(record: ndefRecord, mode: .relaxed) else { return (nil, nil) }
        return (text.text, text.language.isEmpty ? nil : Locale(identifier: text.language))
    }

    /// BCP 47 language tag of a locale identifier: `en_US@calendar=x` → `en-US`.
    static func languageTag(_ locale: Locale) -> String {
        let identifier = locale.identifier.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return identifier.replacingOccurrences(of: "_", with: "-")
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
