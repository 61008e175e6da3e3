import Testing
import NDEF

@Suite struct MalformedInputTests {
    /// Inputs no mode can decode: the same typed error in strict and relaxed.
    @Test(arguments: [
        ("no bytes", "", NDEFError.emptyMessage),
        ("header only", "D1", .truncated(field: .typeLength, offset: 1, needed: 1, available: 0)),
        ("no payload length", "D1 01", .truncated(field: .payloadLength, offset: 2, needed: 1, available: 0)),
        ("32-bit length cut short", "C1 01 00 00", .truncated(field: .payloadLength, offset: 2, needed: 4, available: 2)),
        ("IL without id length", "D9 01 00", .truncated(field: .idLength, offset: 3, needed: 1, available: 0)),
        ("type past the end", "D1 05 00 55", .truncated(field: .type, offset: 3, needed: 5, available: 1)),
        ("id past the end", "D9 01 00 04 55 61", .truncated(field: .id, offset: 5, needed: 4, available: 1)),
        ("payload past the end", "D1 01 05 55 04", .truncated(field: .payload, offset: 4, needed: 5, available: 1)),
        ("huge 32-bit length", "C1 01 FF FF FF FF 55", .truncated(field: .payload, offset: 7, needed: 0xFFFF_FFFF, available: 0)),
        ("2 GiB length", "C1 01 80 00 00 00 55 00", .truncated(field: .payload, offset: 7, needed: 0x8000_0000, available: 1)),
        ("second record truncated", "91 01 02 55 05 31  51 01", .truncated(field: .payloadLength, offset: 8, needed: 1, available: 0)),
        ("TNF 7", "D7 00 00", .reservedTypeNameFormat(offset: 0)),
        ("TNF 7 in second record", "95 00 00  57 00 00", .reservedTypeNameFormat(offset: 3)),
        ("TNF 6 alone", "D6 00 00", .invalidRecord(offset: 0, violation: .unchangedOutsideChunk)),
        ("TNF 6 after a whole record", "95 00 00  56 00 00", .invalidRecord(offset: 3, violation: .unchangedOutsideChunk)),
        ("continuation chunk with IL", "B2 03 01 61 2F 62 41  5E 00 01 01 78 42",
         .invalidChunk(offset: 7, violation: .continuationWithID)),
        ("continuation chunk with IL and empty id", "B2 03 01 61 2F 62 41  5E 00 01 00 42",
         .invalidChunk(offset: 7, violation: .continuationWithID)),
        ("middle chunk with a type", "B2 03 01 61 2F 62 41  36 01 01 61 42",
         .invalidChunk(offset: 7, violation: .continuationWithType)),
        ("continuation chunk not TNF 6", "B2 03 01 61 2F 62 41  52 03 01 61 2F 62 42",
         .invalidChunk(offset: 7, violation: .continuationNotUnchanged(.media))),
        ("unterminated chunk", "B2 03 01 61 2F 62 41  36 00 01 42", .invalidChunk(offset: 11, violation: .unterminated)),
        ("chunk start only", "B5 00 01 01", .invalidChunk(offset: 4, violation: .unterminated)),
        ("ME on a chunk start", "F2 03 01 61 2F 62 41", .invalidChunk(offset: 0, violation: .messageEndInChunk)),
        ("ME on a middle chunk", "B2 03 01 61 2F 62 41  76 00 01 42  56 00 01 43",
         .invalidChunk(offset: 7, violation: .messageEndInChunk)),
        ("empty record chunked", "B0 00 00  56 00 00", .invalidChunk(offset: 0, violation: .emptyRecordChunked)),
    ])
    func rejectedInBothModes(_ name: String, _ hex: String, _ expected: NDEFError) {
        #expect(decodeError(h(hex), .strict) == expected, "\(name)")
        #expect(decodeError(h(hex), .relaxed) == expected, "\(name)")
    }

    /// Breaches strict mode rejects and relaxed mode reads, with what relaxed gives.
    @Test(arguments: [
        ("missing MB", "51 01 02 55 05 31", NDEFError.missingMessageBegin(offset: 0), 1),
        ("missing ME", "91 01 02 55 05 31", .missingMessageEnd(offset: 6), 1),
        ("missing MB and ME", "11 01 02 55 05 31  15 00 00", .missingMessageBegin(offset: 0), 2),
        ("MB on the second record", "91 01 02 55 05 31  D5 00 00", .unexpectedMessageBegin(offset: 6), 2),
        ("bytes after ME (tag padding)", "D1 01 02 55 05 31 00 00", .trailingBytes(offset: 6, count: 2), 1),
        ("a second message after ME", "D1 01 02 55 05 31  D5 00 00", .trailingBytes(offset: 6, count: 3), 1),
        ("TNF 0 with a type", "D0 01 00 55", .invalidRecord(offset: 0, violation: .emptyRecordWithContent), 1),
        ("TNF 0 with a payload", "D0 00 01 00", .invalidRecord(offset: 0, violation: .emptyRecordWithContent), 1),
        ("TNF 0 with an id", "D8 00 00 01 00", .invalidRecord(offset: 0, violation: .emptyRecordWithContent), 1),
        ("TNF 1 with an empty type", "D1 00 00", .invalidRecord(offset: 0, violation: .missingType), 1),
        ("TNF 2 with an empty type", "D2 00 01 00", .invalidRecord(offset: 0, violation: .missingType), 1),
        ("TNF 4 with an empty type", "D4 00 00", .invalidRecord(offset: 0, violation: .missingType), 1),
        ("TNF 5 with a type", "D5 01 00 55", .invalidRecord(offset: 0, violation: .unknownTypeWithType), 1),
    ])
    func strictOnly(_ name: String, _ hex: String, _ strictError: NDEFError, _ relaxedCount: Int) throws {
        #expect(decodeError(h(hex), .strict) == strictError, "\(name)")
        let relaxed = try NDEFMessage(bytes: h(hex), mode: .relaxed)
        #expect(relaxed.records.count == relaxedCount, "\(name)")
    }

    @Test func relaxedKeepsTheOddRecordAsItIs() throws {
        let message = try NDEFMessage(bytes: h("D0 01 01 55 07"), mode: .relaxed)
        #expect(message.records == [NDEFRecord(tnf: .empty, type: [0x55], payload: [7])])
        #expect(try message.records[0].parsed(mode: .relaxed) == .unknown(message.records[0]))
    }

    @Test func messageSizeLimit() {
        let bytes = h("D5 00 04 01 02 03 04")
        #expect(decodeError(bytes, limits: NDEFLimits(maxMessageBytes: 6)) == .limitExceeded(.messageBytes, limit: 6, offset: 0))
        #expect(decodeError(bytes, limits: NDEFLimits(maxMessageBytes: 7)) == nil)
    }

    @Test func recordCountLimit() {
        let bytes = h("95 00 00  15 00 00  55 00 00")
        #expect(decodeError(bytes, .relaxed, limits: NDEFLimits(maxRecords: 2)) == .limitExceeded(.records, limit: 2, offset: 6))
        #expect(decodeError(bytes, limits: NDEFLimits(maxRecords: 3)) == nil)
    }

    @Test func chunkCountLimit() {
        let bytes = h("B5 00 01 01  36 00 01 02  56 00 01 03")
        #expect(decodeError(bytes, limits: NDEFLimits(maxChunks: 2)) == .limitExceeded(.chunks, limit: 2, offset: 8))
        #expect(decodeError(bytes, limits: NDEFLimits(maxChunks: 3)) == nil)
    }

    /// 200,000 empty chunks in 600 KB: stopped by the chunk limit, not by memory.
    @Test func manyTinyChunksHitTheLimit() {
        var bytes = h("B5 00 00")
        for _ in 0..<200_000 { bytes += [0x36, 0x00, 0x00] }
        bytes += [0x56, 0x00, 0x00]
        #expect(decodeError(bytes) == .limitExceeded(.chunks, limit: 1024, offset: 1024 * 3))
    }

    @Test func errorsDescribeWhereAndWhat() {
        #expect(NDEFError.truncated(field: .payload, offset: 4, needed: 5, available: 1).description
                == "truncated NDEF record: payload at offset 4 needs 5 bytes, 1 left")
        #expect(NDEFError.invalidChunk(offset: 7, violation: .continuationWithType).description
                == "invalid NDEF chunk at offset 7: continuation chunk has a type")
        #expect(NDEFError.invalidPayload(recordType: "U", offset: 0, violation: .unknownURIIdentifierCode(0x24)).description
                == "invalid \"U\" record payload at offset 0: unknown URI identifier code 0x24")
        #expect(NDEFError.limitExceeded(.chunks, limit: 2, offset: 8).localizedDescription
                == "NDEF chunk count exceeds the limit of 2 (offset 8)")
    }
}
