/// A media-type record: TNF 2, the type is an RFC 2046 media type such as `application/json`
/// or `text/plain; charset=utf-8`; the payload is the content.
public struct MediaRecord: NDEFPayloadCodable {
    public var mediaType: String
    public var payload: [UInt8]

    public init(mediaType: String, payload: [UInt8]) {
        self.mediaType = mediaType
        self.payload = payload
    }

    /// - Throws: `.invalidPayload(.invalidMediaType)` in strict mode when the type is not
    ///   `type/subtype[;params]` in printable ASCII. Relaxed takes any type as text.
    public init(record: NDEFRecord, mode: DecodingMode = .strict) throws(NDEFError) {
        guard record.tnf == .media else {
            throw NDEFError.invalidPayload(recordType: "media", offset: 0, violation: .wrongRecordType(expected: "media (TNF 2)"))
        }
        if mode == .strict, !Self.isValid(record.type) {
            throw NDEFError.invalidPayload(recordType: String(decoding: record.type, as: UTF8.self), offset: 0, violation: .invalidMediaType)
        }
        mediaType = String(decoding: record.type, as: UTF8.self)
        payload = record.payload
    }

    /// - Throws: `.cannotEncode(.invalidType)` for a type the strict decoder would reject.
    public func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(mediaType.utf8)
        guard Self.isValid(type) else { throw NDEFError.cannotEncode(recordIndex: nil, violation: .invalidType(mediaType)) }
        return NDEFRecord(tnf: .media, type: type, payload: payload)
    }

    /// `type/subtype` lower-cased, parameters removed.
    public var essence: String {
        String(mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0])
            .trimmingSpaces.lowercased()
    }

    /// `application/json` or any `…/…+json`.
    public var isJSON: Bool { essence == "application/json" || essence.hasSuffix("+json") }

    /// The payload as text for a `text/…` type when it is valid UTF-8, else nil.
    public var text: String? {
        guard essence.hasPrefix("text/") else { return nil }
        return try? TextDecoding.utf8(payload[...], strict: true)
    }

    /// Printable ASCII, `type/subtype` each non-empty and free of spaces, optional `;` parameters.
    static func isValid(_ type: [UInt8]) -> Bool {
        guard !type.isEmpty, type.allSatisfy(ASCII.isPrintable) else { return false }
        let essence = type.split(separator: 0x3B, maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = essence.split(separator: 0x2F, omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && !$0.contains(0x20) }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
