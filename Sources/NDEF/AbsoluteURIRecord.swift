/// An absolute-URI record: TNF 3, the type field is an absolute URI (RFC 3986) naming the
/// payload's type; the payload is opaque.
public struct AbsoluteURIRecord: NDEFPayloadCodable {
    public var uri: String
    public var payload: [UInt8]

    public init(uri: String, payload: [UInt8] = []) {
        self.uri = uri
        self.payload = payload
    }

    /// - Throws: `.invalidPayload(.invalidAbsoluteURI)` in strict mode unless the type is printable
    ///   ASCII starting with a scheme (`letter *(letter / digit / + - .) ":"`).
    public init(record: NDEFRecord, mode: DecodingMode = .strict) throws(NDEFError) {
        guard record.tnf == .absoluteURI else {
            throw NDEFError.invalidPayload(recordType: "absolute URI", offset: 0, violation: .wrongRecordType(expected: "absolute URI (TNF 3)"))
        }
        if mode == .strict, !Self.isValid(record.type) {
            throw NDEFError.invalidPayload(recordType: "absolute URI", offset: 0, violation: .invalidAbsoluteURI)
        }
        uri = String(decoding: record.type, as: UTF8.self)
        payload = record.payload
    }

    /// - Throws: `.cannotEncode(.invalidType)` for a URI the strict decoder would reject.
    public func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(uri.utf8)
        guard Self.isValid(type) else { throw NDEFError.cannotEncode(recordIndex: nil, violation: .invalidType(uri)) }
        return NDEFRecord(tnf: .absoluteURI, type: type, payload: payload)
    }

    static func isValid(_ type: [UInt8]) -> Bool {
        guard type.allSatisfy({ ASCII.isPrintable($0) && $0 != 0x20 }),
              let colon = type.firstIndex(of: 0x3A), colon > 0, ASCII.isLetter(type[0]) else { return false }
        return type[1..<colon].allSatisfy { ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }
}
