import NDEF
import RecordOutput

/// Renders an NDEF message as the CLI's JSON object:
///
///     {"records":[{"tnf":1,"type":"U","id":"","payload":"04…","uri":"https://…"}, …], <extra fields>}
///
/// Every record has `tnf` (0–6), `type`, `id` and `payload` (upper-case hex). `type` and `id` are
/// text when every byte is printable ASCII (0x20–0x7E), else upper-case hex, and then the record
/// also has `"typeFormat":"hex"` / `"idFormat":"hex"` so the two cannot be confused.
/// Decoded fields follow, by record kind:
/// - URI: `uri`; Text: `text`, `language`, and `"encoding":"utf16"` for UTF-16 text;
/// - Smart Poster: `uri`, `records` (the nested message, same shape), and when present
///   `action` (0 do, 1 save, 2 open), `size` (bytes), `mimeType`;
/// - media: `mime` (the media type); `json` (the payload as JSON, keys sorted) when the type is
///   JSON and the payload parses; `text` for a `text/*` type with a UTF-8 payload;
/// - absolute URI: `uri`; external: `domain`, `externalType`; Android Application Record: `package`.
/// In relaxed mode a record whose payload cannot be decoded gets an `error` string instead of
/// decoded fields; in strict mode rendering throws that error.
package enum NDEFJSON {
    /// The message object; `extraFields` are appended after `records` (e.g. `zebra`).
    /// - Throws: `NDEFError` (strict mode: a malformed payload; any mode: nesting deeper than `limits`).
    package static func message(_ message: NDEFMessage, mode: DecodingMode, limits: NDEFLimits = .default,
                        extraFields: [(String, JSONValue)] = []) throws -> JSONValue {
        .object([("records", try records(message.records, mode: mode, limits: limits, depth: 0))] + extraFields)
    }

    package static func records(_ records: [NDEFRecord], mode: DecodingMode, limits: NDEFLimits, depth: Int) throws -> JSONValue {
        .array(try records.map { try record($0, mode: mode, limits: limits, depth: depth) })
    }

    /// One record; `depth` is the number of enclosing messages (0 at top level).
    package static func record(_ record: NDEFRecord, mode: DecodingMode, limits: NDEFLimits, depth: Int) throws -> JSONValue {
        var fields: [(String, JSONValue)] = [("tnf", .int(Int(record.tnf.rawValue)))]
        fields += textOrHex("type", record.type)
        fields += textOrHex("id", record.id)
        fields.append(("payload", .string(record.payload.hexString)))
        do {
            fields += try decodedFields(record, mode: mode, limits: limits, depth: depth)
        } catch let error as NDEFError where mode == .relaxed {
            fields.append(("error", .string(error.description)))
        }
        return .object(fields)
    }

    private static func textOrHex(_ key: String, _ bytes: [UInt8]) -> [(String, JSONValue)] {
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) {
            return [(key, .string(String(decoding: bytes, as: UTF8.self)))]
        }
        return [(key, .string(bytes.hexString)), (key + "Format", .string("hex"))]
    }

    private static func decodedFields(_ record: NDEFRecord, mode: DecodingMode, limits: NDEFLimits,
                                      depth: Int) throws -> [(String, JSONValue)] {
        switch try record.parsed(mode: mode, limits: limits) {
        case .empty, .unknown:
            return []
        case let .uri(u):
            return [("uri", .string(u.uri))]
        case let .text(t):
            var fields: [(String, JSONValue)] = [("text", .string(t.text)), ("language", .string(t.language))]
            if t.encoding.isUTF16 { fields.append(("encoding", .string("utf16"))) }
            return fields
        case let .smartPoster(poster):
            // The nested message is rendered as it is on the tag (same order, every record).
            guard depth + 1 <= limits.maxNestingDepth else {
                throw NDEFError.limitExceeded(.nestingDepth, limit: limits.maxNestingDepth, offset: 0)
            }
            let nested = try NDEFMessage(bytes: record.payload, mode: mode, limits: limits)
            var fields: [(String, JSONValue)] = [
                ("uri", .string(poster.uri.uri)),
                ("records", try records(nested.records, mode: mode, limits: limits, depth: depth + 1)),
            ]
            if let action = poster.action { fields.append(("action", .int(Int(action.rawValue)))) }
            if let size = poster.size { fields.append(("size", .int(Int(size)))) }
            if let mimeType = poster.mimeType { fields.append(("mimeType", .string(mimeType))) }
            return fields
        case let .media(m):
            var fields: [(String, JSONValue)] = [("mime", .string(m.mediaType))]
            if m.isJSON, let json = JSONValue(parsing: m.payload) { fields.append(("json", json)) }
            if let text = m.text { fields.append(("text", .string(text))) }
            return fields
        case let .absoluteURI(u):
            return [("uri", .string(u.uri))]
        case let .androidApplication(aar):
            return [("package", .string(aar.packageName))]
        case let .external(e):
            return [("domain", .string(e.domain)), ("externalType", .string(e.type))]
        }
    }
}
