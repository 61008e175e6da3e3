/// A Smart Poster: well-known type `Sp` (NFC Forum Smart Poster RTD 1.0). The payload is a nested
/// NDEF message with exactly one URI record, optional Text titles (one per language), and the
/// local records `act` (action, 1 byte), `s` (size, 4 bytes big-endian), `t` (MIME type of the
/// target, UTF-8). Icons and anything else are kept in `otherRecords`.
///
/// Encoding writes the records in the order URI, titles, `act`, `s`, `t`, others; a decoded
/// poster whose records came in another order re-encodes in this order.
public struct SmartPoster: NDEFPayloadCodable {
    public static let type: [UInt8] = Array("Sp".utf8)

    /// The recommended action (`act` record): 0 do, 1 save for later, 2 open for editing.
    public struct Action: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let execute = Action(rawValue: 0)
        public static let save = Action(rawValue: 1)
        public static let open = Action(rawValue: 2)
        /// `do`, `save`, `open`; nil for a reserved value.
        public var name: String? { rawValue < 3 ? ["do", "save", "open"][Int(rawValue)] : nil }
    }

    public var uri: URIRecord
    public var titles: [TextRecord]
    public var action: Action?
    public var size: UInt32?
    public var mimeType: String?
    /// Records of the nested message that are none of the above (icons, unknown types).
    public var otherRecords: [NDEFRecord]

    public init(uri: String, titles: [TextRecord] = [], action: Action? = nil, size: UInt32? = nil,
                mimeType: String? = nil, otherRecords: [NDEFRecord] = []) {
        self.uri = URIRecord(uri: uri)
        self.titles = titles
        self.action = action
        self.size = size
        self.mimeType = mimeType
        self.otherRecords = otherRecords
    }

    public init(record: NDEFRecord, mode: DecodingMode = .strict) throws(NDEFError) {
        try self.init(record: record, mode: mode, limits: .default)
    }

    /// - Throws: `.invalidPayload(recordType: "Sp", …)` without a URI record (both modes), with two
    ///   URIs or two titles of one language (strict); `.invalidNestedMessage` wrapping the error of
    ///   the nested message or one of its records; `.limitExceeded(.nestingDepth)`.
    public init(record: NDEFRecord, mode: DecodingMode = .strict, limits: NDEFLimits) throws(NDEFError) {
        try self.init(record: record, mode: mode, limits: limits, depth: 0)
    }

    /// `depth`: how many messages enclose the record (0 for a record of a top-level message).
    init(record: NDEFRecord, mode: DecodingMode, limits: NDEFLimits, depth: Int) throws(NDEFError) {
        func fail(_ v: NDEFError.PayloadViolation) -> NDEFError {
            .invalidPayload(recordType: "Sp", offset: 0, violation: v)
        }
        let strict = mode == .strict
        guard record.hasType(.wellKnown, "Sp") else { throw fail(.wrongRecordType(expected: "Smart Poster (Sp)")) }
        guard depth + 1 <= limits.maxNestingDepth else {
            throw NDEFError.limitExceeded(.nestingDepth, limit: limits.maxNestingDepth, offset: 0)
        }
        var uri: URIRecord? = nil
        var titles: [TextRecord] = []
        var action: Action? = nil, size: UInt32? = nil, mimeType: String? = nil
        var others: [NDEFRecord] = []
        do throws(NDEFError) {
            let nested = try NDEFMessage(bytes: record.payload, mode: mode, limits: limits)
            for r in nested.records {
                if r.hasType(.wellKnown, "U") {
                    let u = try URIRecord(record: r, mode: mode)
                    if uri == nil { uri = u } else if strict { throw fail(.multipleURIs) } else { others.append(r) }
                } else if r.hasType(.wellKnown, "T") {
                    let t = try TextRecord(record: r, mode: mode)
                    if strict, titles.contains(where: { $0.language.lowercased() == t.language.lowercased() }) {
                        throw fail(.duplicateTitleLanguage(t.language))
                    }
                    titles.append(t)
                } else if r.hasType(.wellKnown, "act"), action == nil, let a = try Self.action(r, strict: strict) {
                    action = a
                } else if r.hasType(.wellKnown, "s"), size == nil, let s = try Self.size(r, strict: strict) {
                    size = s
                } else if r.hasType(.wellKnown, "t"), mimeType == nil {
                    do { mimeType = try TextDecoding.utf8(r.payload[...], strict: strict) } catch {
                        throw NDEFError.invalidPayload(recordType: "t", offset: 0, violation: .invalidUTF8)
                    }
                } else {
                    if strict { _ = try r.parsed(mode: mode, limits: limits, depth: depth + 1) }
                    others.append(r)
                }
            }
        } catch {
            if case .invalidPayload("Sp", _, _) = error { throw error }
            throw NDEFError.invalidNestedMessage(recordType: "Sp", underlying: error)
        }
        guard let uri else { throw fail(.missingURI) }
        self.uri = uri
        self.titles = titles
        self.action = action
        self.size = size
        self.mimeType = mimeType
        self.otherRecords = others
    }

    /// The `act` value; nil (relaxed) for a malformed record, which is then kept in `otherRecords`.
    private static func action(_ r: NDEFRecord, strict: Bool) throws(NDEFError) -> Action? {
        guard r.payload.count == 1 else {
            if strict { throw NDEFError.invalidPayload(recordType: "act", offset: 0,
                                                      violation: .invalidFieldLength(field: "act", expected: 1, actual: r.payload.count)) }
            return nil
        }
        if strict, r.payload[0] > 2 {
            throw NDEFError.invalidPayload(recordType: "act", offset: 0, violation: .unknownAction(r.payload[0]))
        }
        return Action(rawValue: r.payload[0])
    }

    /// The `s` value; nil (relaxed) for a malformed record.
    private static func size(_ r: NDEFRecord, strict: Bool) throws(NDEFError) -> UInt32? {
        guard r.payload.count == 4 else {
            if strict { throw NDEFError.invalidPayload(recordType: "s", offset: 0,
                                                      violation: .invalidFieldLength(field: "s", expected: 4, actual: r.payload.count)) }
            return nil
        }
        return r.payload.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The nested records in encoding order.
    public func records() throws(NDEFError) -> [NDEFRecord] {
        var records = [uri.record()]
        for title in titles { records.append(try title.record()) }
        if let action { records.append(NDEFRecord(tnf: .wellKnown, type: Array("act".utf8), payload: [action.rawValue])) }
        if let size {
            records.append(NDEFRecord(tnf: .wellKnown, type: Array("s".utf8),
                                      payload: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]))
        }
        if let mimeType { records.append(NDEFRecord(tnf: .wellKnown, type: Array("t".utf8), payload: Array(mimeType.utf8))) }
        return records + otherRecords
    }

    /// - Throws: `.cannotEncode` when a title or an other record cannot be encoded.
    public func record() throws(NDEFError) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: Self.type, payload: try NDEFMessage(records: records()).encoded())
    }
}
