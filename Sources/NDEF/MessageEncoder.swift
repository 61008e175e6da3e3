/// Encodes the framing of an NDEF message (NFC Forum NDEF 1.0 §3.2). Flags are derived:
/// MB on the first raw record, ME on the last, SR when a (chunk) payload is under 256 bytes,
/// IL when the id is not empty, CF on every chunk but the last of a chunked record.
enum MessageEncoder {
    static func encode(_ items: [(record: NDEFRecord, chunkSize: Int?)]) throws(NDEFError) -> [UInt8] {
        guard !items.isEmpty else { throw NDEFError.cannotEncode(recordIndex: nil, violation: .noRecords) }
        var out: [UInt8] = []
        for (index, item) in items.enumerated() {
            try validate(item.record, chunkSize: item.chunkSize, index: index)
            let record = item.record
            let chunks = split(record.payload, chunkSize: item.chunkSize)
            for (c, chunk) in chunks.enumerated() {
                let first = c == 0, last = c == chunks.count - 1
                var header: UInt8 = first ? record.tnf.rawValue : TypeNameFormat.unchanged.rawValue
                if index == 0 && first { header |= RecordHeader.messageBegin }
                if index == items.count - 1 && last { header |= RecordHeader.messageEnd }
                if !last { header |= RecordHeader.chunk }
                if chunk.count < 256 { header |= RecordHeader.shortRecord }
                let id = first ? record.id : []
                if !id.isEmpty { header |= RecordHeader.idLengthPresent }
                let type = first ? record.type : []

                out.append(header)
                out.append(UInt8(type.count))
                if chunk.count < 256 {
                    out.append(UInt8(chunk.count))
                } else {
                    let n = UInt32(chunk.count)
                    out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
                }
                if !id.isEmpty { out.append(UInt8(id.count)) }
                out += type
                out += id
                out += chunk
            }
        }
        return out
    }

    /// The payload in chunks of `chunkSize` bytes (the last one shorter); one piece when not chunked.
    private static func split(_ payload: [UInt8], chunkSize: Int?) -> [ArraySlice<UInt8>] {
        guard let size = chunkSize, payload.count > size else { return [payload[...]] }
        return stride(from: 0, to: payload.count, by: size).map { payload[$0..<min($0 + size, payload.count)] }
    }

    private static func validate(_ record: NDEFRecord, chunkSize: Int?, index: Int) throws(NDEFError) {
        func fail(_ v: NDEFError.EncodingViolation) -> NDEFError { .cannotEncode(recordIndex: index, violation: v) }
        if let size = chunkSize, size < 1 { throw fail(.invalidChunkSize(size)) }
        guard record.type.count <= 255 else { throw fail(.typeTooLong(record.type.count)) }
        guard record.id.count <= 255 else { throw fail(.idTooLong(record.id.count)) }
        guard UInt64(record.payload.count) <= UInt64(UInt32.max) else { throw fail(.payloadTooLong(record.payload.count)) }
        switch record.tnf {
        case .empty:
            guard record.type.isEmpty, record.id.isEmpty, record.payload.isEmpty else { throw fail(.emptyRecordWithContent) }
        case .wellKnown, .media, .absoluteURI, .external:
            guard !record.type.isEmpty else { throw fail(.missingType) }
        case .unknown:
            guard record.type.isEmpty else { throw fail(.unknownTypeWithType) }
        case .unchanged:
            throw fail(.unchangedTypeNameFormat)
        }
    }
}
