/// A typed view of one kind of NDEF record: it reads and writes only the record's type and
/// payload; the framing is the message codec's (ndeflib's split).
public protocol NDEFPayloadCodable: Sendable, Hashable {
    /// Decodes `record`.
    /// - Throws: `NDEFError.invalidPayload` (`.wrongRecordType` when TNF or type do not match).
    init(record: NDEFRecord, mode: DecodingMode) throws(NDEFError)
    /// The record holding this value (id empty).
    /// - Throws: `NDEFError.cannotEncode` when a field cannot be represented.
    func record() throws(NDEFError) -> NDEFRecord
}

extension NDEFRecord {
    /// The record for a typed value. - Throws: what `value.record()` throws.
    public init(_ value: some NDEFPayloadCodable) throws(NDEFError) {
        self = try value.record()
    }
}
