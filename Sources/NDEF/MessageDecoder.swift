/// Decodes the framing of one NDEF message (NFC Forum NDEF 1.0 §3.2): flags, lengths, chunk
/// reassembly. Written once for every record type; payloads are left as bytes.
struct MessageDecoder {
    let bytes: [UInt8]
    let mode: DecodingMode
    let limits: NDEFLimits

    /// A chunked record being reassembled (§2.3.3): the first chunk gave TNF, type and id.
    private struct PendingChunks {
        var record: NDEFRecord
        var count: Int
    }

    func decode() throws(NDEFError) -> [NDEFRecord] {
        guard !bytes.isEmpty else { throw NDEFError.emptyMessage }
        guard bytes.count <= limits.maxMessageBytes else {
            throw NDEFError.limitExceeded(.messageBytes, limit: limits.maxMessageBytes, offset: 0)
        }
        var cursor = ByteCursor(bytes)
        var records: [NDEFRecord] = []
        var pending: PendingChunks? = nil
        var isFirst = true
        var sawMessageEnd = false

        while !cursor.isAtEnd {
            let raw = try readRawRecord(&cursor)
            try checkMessageBegin(raw, isFirst: isFirst)
            isFirst = false
            guard let tnf = TypeNameFormat(rawValue: raw.tnfValue) else {
                throw NDEFError.reservedTypeNameFormat(offset: raw.offset)
            }

            if var chunks = pending {
                // Middle or terminating chunk: TNF 6, no type, no IL (§2.3.3).
                guard tnf == .unchanged else {
                    throw NDEFError.invalidChunk(offset: raw.offset, violation: .continuationNotUnchanged(tnf))
                }
                guard raw.type.isEmpty else { throw NDEFError.invalidChunk(offset: raw.offset, violation: .continuationWithType) }
                guard !raw.hasIDLength else { throw NDEFError.invalidChunk(offset: raw.offset, violation: .continuationWithID) }
                chunks.count += 1
                guard chunks.count <= limits.maxChunks else {
                    throw NDEFError.limitExceeded(.chunks, limit: limits.maxChunks, offset: raw.offset)
                }
                chunks.record.payload.append(contentsOf: raw.payload)
                if raw.chunked {
                    guard !raw.messageEnd else { throw NDEFError.invalidChunk(offset: raw.offset, violation: .messageEndInChunk) }
                    pending = chunks
                } else {
                    pending = nil
                    try append(chunks.record, to: &records, offset: raw.offset)
                }
            } else {
                guard tnf != .unchanged else {
                    throw NDEFError.invalidRecord(offset: raw.offset, violation: .unchangedOutsideChunk)
                }
                try checkFields(raw, tnf: tnf)
                let record = NDEFRecord(tnf: tnf, type: Array(raw.type), id: Array(raw.id), payload: Array(raw.payload))
                if raw.chunked {
                    guard tnf != .empty else { throw NDEFError.invalidChunk(offset: raw.offset, violation: .emptyRecordChunked) }
                    guard !raw.messageEnd else { throw NDEFError.invalidChunk(offset: raw.offset, violation: .messageEndInChunk) }
                    pending = PendingChunks(record: record, count: 1)
                } else {
                    try append(record, to: &records, offset: raw.offset)
                }
            }

            if raw.messageEnd {
                sawMessageEnd = true
                break
            }
        }

        if pending != nil {
            throw NDEFError.invalidChunk(offset: cursor.offset, violation: .unterminated)
        }
        if sawMessageEnd, !cursor.isAtEnd, mode == .strict {
            throw NDEFError.trailingBytes(offset: cursor.offset, count: cursor.remaining)
        }
        if !sawMessageEnd, mode == .strict {
            throw NDEFError.missingMessageEnd(offset: cursor.offset)
        }
        return records
    }

    /// Header, TYPE_LENGTH, PAYLOAD_LENGTH (1 byte if SR, else 4), ID_LENGTH (if IL), TYPE, ID, PAYLOAD.
    private func readRawRecord(_ cursor: inout ByteCursor) throws(NDEFError) -> RawRecord {
        let start = cursor.offset
        let header = try cursor.readByte(.header)
        let typeLength = Int(try cursor.readByte(.typeLength))
        let payloadLength: Int
        if header & RecordHeader.shortRecord != 0 {
            payloadLength = Int(try cursor.readByte(.payloadLength))
        } else {
            payloadLength = Int(try cursor.readUInt32(.payloadLength))  // 64-bit Int: no overflow
        }
        let idLength = header & RecordHeader.idLengthPresent != 0 ? Int(try cursor.readByte(.idLength)) : 0
        let type = try cursor.read(typeLength, .type)
        let id = try cursor.read(idLength, .id)
        let payload = try cursor.read(payloadLength, .payload)
        return RawRecord(offset: start, header: header, tnfValue: header & RecordHeader.tnfMask,
                         type: type, id: id, payload: payload)
    }

    private func checkMessageBegin(_ raw: RawRecord, isFirst: Bool) throws(NDEFError) {
        guard mode == .strict else { return }
        if isFirst, !raw.messageBegin { throw NDEFError.missingMessageBegin(offset: raw.offset) }
        if !isFirst, raw.messageBegin { throw NDEFError.unexpectedMessageBegin(offset: raw.offset) }
    }

    /// TNF-specific field rules (§3.2.6); relaxed mode keeps such records as they are.
    private func checkFields(_ raw: RawRecord, tnf: TypeNameFormat) throws(NDEFError) {
        guard mode == .strict else { return }
        switch tnf {
        case .empty where !raw.type.isEmpty || !raw.id.isEmpty || !raw.payload.isEmpty:
            throw NDEFError.invalidRecord(offset: raw.offset, violation: .emptyRecordWithContent)
        case .wellKnown, .media, .absoluteURI, .external:
            if raw.type.isEmpty { throw NDEFError.invalidRecord(offset: raw.offset, violation: .missingType) }
        case .unknown where !raw.type.isEmpty:
            throw NDEFError.invalidRecord(offset: raw.offset, violation: .unknownTypeWithType)
        default:
            break
        }
    }

    private func append(_ record: NDEFRecord, to records: inout [NDEFRecord], offset: Int) throws(NDEFError) {
        guard records.count < limits.maxRecords else {
            throw NDEFError.limitExceeded(.records, limit: limits.maxRecords, offset: offset)
        }
        records.append(record)
    }
}
