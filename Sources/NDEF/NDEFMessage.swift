/// An NDEF message: one or more records (NFC Forum NDEF 1.0 §3).
public struct NDEFMessage: Sendable, Hashable {
    public var records: [NDEFRecord]

    public init(records: [NDEFRecord]) {
        self.records = records
    }

    /// Decodes one NDEF message. Chunked records are reassembled.
    /// - Parameters:
    ///   - mode: `.strict` (default) rejects every framing breach; `.relaxed` accepts what real tags
    ///     hold (see `DecodingMode`). Payloads are not interpreted here: see `NDEFRecord.parsed`.
    ///   - limits: caps on size, record count, chunk count.
    /// - Throws: `NDEFError` with the byte offset where decoding failed; `.emptyMessage` for no
    ///   bytes in either mode (an empty tag is the tag layer's case, not a message).
    public init(bytes: [UInt8], mode: DecodingMode = .strict, limits: NDEFLimits = .default) throws(NDEFError) {
        self.records = try MessageDecoder(bytes: bytes, mode: mode, limits: limits).decode()
    }

    /// The message as NDEF bytes. MB/ME/SR/IL are set as the specification asks; with a
    /// `chunkSize`, every payload longer than it is split into chunks of that many bytes (CF).
    /// - Throws: `NDEFError.cannotEncode` for an empty message, a record that strict decoding would
    ///   reject (TNF 6, TNF 0 with content, TNF 1–4 without type, TNF 5 with a type), a type or id
    ///   longer than 255 bytes, a payload longer than 2³²−1 bytes, or a chunk size below 1.
    public func encoded(chunkSize: Int? = nil) throws(NDEFError) -> [UInt8] {
        try MessageEncoder.encode(records.map { ($0, chunkSize) })
    }

    /// Like `encoded(chunkSize:)` with one chunk size per record (nil: not chunked).
    /// Used by Core NFC's `NFCNDEFPayload(…, chunkSize:)`.
    package func encoded(chunkSizes: [Int?]) throws(NDEFError) -> [UInt8] {
        try MessageEncoder.encode(records.enumerated().map { i, r in (r, i < chunkSizes.count ? chunkSizes[i] : nil) })
    }
}
