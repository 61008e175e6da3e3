/// A record interpreted by its TNF and type. Unknown types are `.unknown`, never an error.
/// Typed cases do not carry the record id: keep the `NDEFRecord` when it matters.
public enum ParsedRecord: Sendable, Hashable {
    /// TNF 0 with no type, id or payload.
    case empty
    case uri(URIRecord)
    case text(TextRecord)
    case smartPoster(SmartPoster)
    case media(MediaRecord)
    case absoluteURI(AbsoluteURIRecord)
    case androidApplication(AndroidApplicationRecord)
    case external(ExternalRecord)
    /// TNF 5, an unknown well-known type, or (relaxed) a record whose fields break its TNF's rules.
    case unknown(NDEFRecord)

    /// The record this value encodes to (id empty; `.unknown` keeps its record as is).
    /// - Throws: what the typed view's `record()` throws.
    public func record() throws(NDEFError) -> NDEFRecord {
        switch self {
        case .empty: return .empty
        case let .uri(v): return v.record()
        case let .text(v): return try v.record()
        case let .smartPoster(v): return try v.record()
        case let .media(v): return try v.record()
        case let .absoluteURI(v): return try v.record()
        case let .androidApplication(v): return v.record()
        case let .external(v): return try v.record()
        case let .unknown(r): return r
        }
    }
}

extension NDEFRecord {
    /// Interprets the payload by TNF and type: `U`, `T`, `Sp` (well-known), media types, absolute
    /// URIs, `android.com:pkg` and other external types. Anything else is `.unknown(self)`.
    /// - Throws: `NDEFError.invalidPayload` / `.invalidNestedMessage` / `.limitExceeded` when a
    ///   known type's payload is malformed under `mode`.
    public func parsed(mode: DecodingMode = .strict, limits: NDEFLimits = .default) throws(NDEFError) -> ParsedRecord {
        try parsed(mode: mode, limits: limits, depth: 0)
    }

    func parsed(mode: DecodingMode, limits: NDEFLimits, depth: Int) throws(NDEFError) -> ParsedRecord {
        switch tnf {
        case .empty:
            return type.isEmpty && id.isEmpty && payload.isEmpty ? .empty : .unknown(self)
        case .wellKnown:
            if hasType(.wellKnown, "U") { return .uri(try URIRecord(record: self, mode: mode)) }
            if hasType(.wellKnown, "T") { return .text(try TextRecord(record: self, mode: mode)) }
            if hasType(.wellKnown, "Sp") {
                return .smartPoster(try SmartPoster(record: self, mode: mode, limits: limits, depth: depth))
            }
            return .unknown(self)
        case .media:
            return type.isEmpty ? .unknown(self) : .media(try MediaRecord(record: self, mode: mode))
        case .absoluteURI:
            return type.isEmpty ? .unknown(self) : .absoluteURI(try AbsoluteURIRecord(record: self, mode: mode))
        case .external:
            if type.isEmpty { return .unknown(self) }
            if hasType(.external, AndroidApplicationRecord.typeName) {
                return .androidApplication(try AndroidApplicationRecord(record: self, mode: mode))
            }
            return .external(try ExternalRecord(record: self, mode: mode))
        case .unknown, .unchanged:
            return .unknown(self)
        }
    }
}
