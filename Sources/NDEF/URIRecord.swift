/// A URI record: well-known type `U` (NFC Forum URI RTD 1.0). Payload: one identifier code byte
/// (an abbreviated prefix, see `URIPrefixes`), then the rest of the URI in UTF-8.
public struct URIRecord: NDEFPayloadCodable {
    public static let type: [UInt8] = [0x55]  // "U"

    /// The full URI, prefix expanded.
    public var uri: String

    public init(uri: String) {
        self.uri = uri
    }

    /// - Throws: `.invalidPayload` for an empty payload; in strict mode also for a reserved code
    ///   (0x24+) or invalid UTF-8. Relaxed: a reserved code means no prefix, bad UTF-8 → U+FFFD.
    public init(record: NDEFRecord, mode: DecodingMode = .strict) throws(NDEFError) {
        func fail(_ offset: Int, _ v: NDEFError.PayloadViolation) -> NDEFError {
            .invalidPayload(recordType: "U", offset: offset, violation: v)
        }
        guard record.hasType(.wellKnown, "U") else { throw fail(0, .wrongRecordType(expected: "URI (U)")) }
        guard let code = record.payload.first else { throw fail(0, .empty) }
        let prefix: String
        if let known = URIPrefixes.prefix(for: code) {
            prefix = known
        } else if mode == .strict {
            throw fail(0, .unknownURIIdentifierCode(code))
        } else {
            prefix = ""
        }
        do {
            uri = prefix + (try TextDecoding.utf8(record.payload.dropFirst(), strict: mode == .strict))
        } catch {
            throw fail(1, .invalidUTF8)
        }
    }

    /// The record with the longest matching prefix abbreviated.
    public func record() -> NDEFRecord {
        let (code, rest) = URIPrefixes.split(uri)
        return NDEFRecord(tnf: .wellKnown, type: Self.type, payload: [code] + Array(rest.utf8))
    }
}
