import Foundation

/// Everything that can go wrong decoding or encoding NDEF. Offsets are byte offsets into the bytes
/// given to the decoder (for a Smart Poster's nested message: into its payload; for a payload
/// error: into the record's payload).
public indirect enum NDEFError: Error, Sendable, Hashable {
    /// No bytes at all: an NDEF message has at least one record.
    case emptyMessage
    /// The data ended inside `field`, which starts at `offset` and needs `needed` bytes
    /// where only `available` remain.
    case truncated(field: RecordField, offset: Int, needed: Int, available: Int)
    /// Strict: the first record (at `offset`) does not have the MB flag.
    case missingMessageBegin(offset: Int)
    /// Strict: a record after the first (at `offset`) has the MB flag.
    case unexpectedMessageBegin(offset: Int)
    /// Strict: the data ended at `offset` without a record carrying the ME flag.
    case missingMessageEnd(offset: Int)
    /// Strict: `count` bytes follow the record with the ME flag, from `offset`.
    case trailingBytes(offset: Int, count: Int)
    /// The record at `offset` has TNF 7, which is reserved.
    case reservedTypeNameFormat(offset: Int)
    /// The record at `offset` breaks a rule on its TNF and fields.
    case invalidRecord(offset: Int, violation: RecordViolation)
    /// The chunk at `offset` breaks a chunking rule (NDEF 1.0 §2.3.3, §3.2.3).
    case invalidChunk(offset: Int, violation: ChunkViolation)
    /// A `NDEFLimits` value was exceeded at `offset`.
    case limitExceeded(NDEFLimits.Kind, limit: Int, offset: Int)
    /// The payload of a `recordType` record is malformed at `offset` (into the payload).
    case invalidPayload(recordType: String, offset: Int, violation: PayloadViolation)
    /// The nested message in the payload of a `recordType` record (Smart Poster) failed to decode.
    case invalidNestedMessage(recordType: String, underlying: NDEFError)
    /// The record at `recordIndex` (nil: the message itself) cannot be encoded.
    case cannotEncode(recordIndex: Int?, violation: EncodingViolation)

    /// A field of the record framing.
    public enum RecordField: String, Sendable, Hashable {
        case header, typeLength = "type length", payloadLength = "payload length", idLength = "id length"
        case type, id, payload
    }

    /// Rules on the TNF and the fields of one record (NDEF 1.0 §3.2.6).
    public enum RecordViolation: Sendable, Hashable {
        /// TNF 0 with a non-zero type, id or payload length.
        case emptyRecordWithContent
        /// TNF 1–4 with a type length of 0.
        case missingType
        /// TNF 5 (unknown) with a non-zero type length.
        case unknownTypeWithType
        /// TNF 6 (unchanged) on a record that does not continue a chunked record.
        case unchangedOutsideChunk
    }

    /// Rules on chunked records.
    public enum ChunkViolation: Sendable, Hashable {
        /// A middle or terminating chunk whose TNF is not 6 (unchanged).
        case continuationNotUnchanged(TypeNameFormat)
        /// A middle or terminating chunk with a type length other than 0.
        case continuationWithType
        /// A middle or terminating chunk with the IL flag.
        case continuationWithID
        /// A chunk with CF set also carries ME (only the terminating chunk may).
        case messageEndInChunk
        /// The data ended before the terminating chunk (CF clear).
        case unterminated
        /// An empty record (TNF 0) with CF set.
        case emptyRecordChunked
    }

    /// Rules of the record type definitions (URI, Text, Smart Poster, media, external, AAR).
    public enum PayloadViolation: Sendable, Hashable {
        /// The payload is empty where the type needs at least one byte.
        case empty
        /// The payload ended: `needed` bytes expected, `available` left.
        case truncated(needed: Int, available: Int)
        /// URI identifier code 0x24 or above (reserved).
        case unknownURIIdentifierCode(UInt8)
        /// Text is not valid UTF-8.
        case invalidUTF8
        /// Text is not valid UTF-16 (odd length or unpaired surrogate).
        case invalidUTF16
        /// A reserved bit is set (Text status byte bit 6).
        case reservedBitSet
        /// Text language code of length 0.
        case emptyLanguageCode
        /// Text language code with characters other than ASCII letters, digits and `-`.
        case invalidLanguageCode
        /// A Smart Poster without a URI record.
        case missingURI
        /// A Smart Poster with more than one URI record.
        case multipleURIs
        /// A Smart Poster with two titles in the same language.
        case duplicateTitleLanguage(String)
        /// A field record (`act`, `s`) with the wrong payload length.
        case invalidFieldLength(field: String, expected: Int, actual: Int)
        /// A Smart Poster action other than 0 (do), 1 (save), 2 (open).
        case unknownAction(UInt8)
        /// A media type that is not `type/subtype` in printable ASCII.
        case invalidMediaType
        /// An absolute URI type that is not printable ASCII `scheme:…`.
        case invalidAbsoluteURI
        /// An external type that is not printable ASCII `domain:type`.
        case invalidExternalType
        /// The record given to a typed view has another TNF or type.
        case wrongRecordType(expected: String)
    }

    /// Reasons a message cannot be encoded.
    public enum EncodingViolation: Sendable, Hashable {
        case noRecords
        case typeTooLong(Int)
        case idTooLong(Int)
        case payloadTooLong(Int)
        case unchangedTypeNameFormat
        case emptyRecordWithContent
        case missingType
        case unknownTypeWithType
        case invalidChunkSize(Int)
        /// A Text language code longer than 63 bytes, empty, or not ASCII.
        case invalidLanguageCode(String)
        /// A media, absolute URI or external type that is not valid (see the decoder's rules).
        case invalidType(String)
    }
}

extension NDEFError: CustomStringConvertible, LocalizedError {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .emptyMessage:
            return "empty NDEF message: no bytes"
        case let .truncated(field, offset, needed, available):
            return "truncated NDEF record: \(field.rawValue) at offset \(offset) needs \(needed) bytes, \(available) left"
        case let .missingMessageBegin(offset):
            return "first NDEF record (offset \(offset)) lacks the MB flag"
        case let .unexpectedMessageBegin(offset):
            return "NDEF record at offset \(offset) has the MB flag but is not the first"
        case let .missingMessageEnd(offset):
            return "NDEF message ends at offset \(offset) without a record with the ME flag"
        case let .trailingBytes(offset, count):
            return "\(count) bytes after the end of the NDEF message (offset \(offset))"
        case let .reservedTypeNameFormat(offset):
            return "NDEF record at offset \(offset) has the reserved TNF 7"
        case let .invalidRecord(offset, violation):
            return "invalid NDEF record at offset \(offset): \(violation.text)"
        case let .invalidChunk(offset, violation):
            return "invalid NDEF chunk at offset \(offset): \(violation.text)"
        case let .limitExceeded(kind, limit, offset):
            return "NDEF \(kind.rawValue) exceeds the limit of \(limit) (offset \(offset))"
        case let .invalidPayload(type, offset, violation):
            return "invalid \"\(type)\" record payload at offset \(offset): \(violation.text)"
        case let .invalidNestedMessage(type, underlying):
            return "invalid message inside \"\(type)\" record: \(underlying.description)"
        case let .cannotEncode(index, violation):
            let which = index.map { "record \($0)" } ?? "message"
            return "cannot encode NDEF \(which): \(violation.text)"
        }
    }
}

extension NDEFError.RecordViolation {
    var text: String {
        switch self {
        case .emptyRecordWithContent: return "TNF 0 (empty) with a type, id or payload"
        case .missingType: return "TNF 1-4 with an empty type"
        case .unknownTypeWithType: return "TNF 5 (unknown) with a type"
        case .unchangedOutsideChunk: return "TNF 6 (unchanged) outside a chunked record"
        }
    }
}

extension NDEFError.ChunkViolation {
    var text: String {
        switch self {
        case let .continuationNotUnchanged(tnf): return "continuation chunk has TNF \(tnf.rawValue), expected 6 (unchanged)"
        case .continuationWithType: return "continuation chunk has a type"
        case .continuationWithID: return "continuation chunk has the IL flag"
        case .messageEndInChunk: return "ME flag on a chunk that is not the terminating one"
        case .unterminated: return "data ended before the terminating chunk"
        case .emptyRecordChunked: return "empty record (TNF 0) marked as chunked"
        }
    }
}

extension NDEFError.PayloadViolation {
    var text: String {
        switch self {
        case .empty: return "empty payload"
        case let .truncated(needed, available): return "needs \(needed) bytes, \(available) left"
        case let .unknownURIIdentifierCode(code): return "unknown URI identifier code 0x\([code].hexString)"
        case .invalidUTF8: return "invalid UTF-8"
        case .invalidUTF16: return "invalid UTF-16"
        case .reservedBitSet: return "reserved bit set"
        case .emptyLanguageCode: return "empty language code"
        case .invalidLanguageCode: return "invalid language code"
        case .missingURI: return "no URI record"
        case .multipleURIs: return "more than one URI record"
        case let .duplicateTitleLanguage(lang): return "two titles in language \"\(lang)\""
        case let .invalidFieldLength(field, expected, actual): return "\"\(field)\" record has \(actual) bytes, expected \(expected)"
        case let .unknownAction(value): return "unknown action \(value)"
        case .invalidMediaType: return "invalid media type"
        case .invalidAbsoluteURI: return "invalid absolute URI type"
        case .invalidExternalType: return "invalid external type (expected domain:type)"
        case let .wrongRecordType(expected): return "not a \(expected) record"
        }
    }
}

extension NDEFError.EncodingViolation {
    var text: String {
        switch self {
        case .noRecords: return "a message needs at least one record"
        case let .typeTooLong(n): return "type of \(n) bytes (at most 255)"
        case let .idTooLong(n): return "id of \(n) bytes (at most 255)"
        case let .payloadTooLong(n): return "payload of \(n) bytes (at most 4294967295)"
        case .unchangedTypeNameFormat: return "TNF 6 (unchanged) is only for chunks"
        case .emptyRecordWithContent: return "TNF 0 (empty) with a type, id or payload"
        case .missingType: return "TNF 1-4 needs a type"
        case .unknownTypeWithType: return "TNF 5 (unknown) must have no type"
        case let .invalidChunkSize(n): return "chunk size \(n) (at least 1)"
        case let .invalidLanguageCode(code): return "invalid language code \"\(code)\" (1-63 ASCII bytes)"
        case let .invalidType(type): return "invalid type \"\(type)\""
        }
    }
}
