import Testing
import NDEF

/// One table drives both directions: decode(bytes) == records and encode(records) == bytes.
@Suite struct FramingVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var name: String
        var hex: String
        var records: [NDEFRecord]
        var chunkSize: Int? = nil
        var testDescription: String { name }
    }

    static let longPayload: [UInt8] = (0..<256).map { UInt8($0) }
    static let mediaType = Array("a/b".utf8)

    static let vectors: [Vector] = [
        Vector(name: "empty record", hex: "D0 00 00", records: [.empty]),
        Vector(name: "short URI record (SR)", hex: "D1 01 0C 55 04" + a("example.com"),
               records: [NDEFRecord(tnf: .wellKnown, type: h("55"), payload: h("04") + Array("example.com".utf8))]),
        Vector(name: "long record: 256-byte payload, 32-bit length",
               hex: "C2 03 00 00 01 00" + a("a/b") + longPayload.hexString,
               records: [NDEFRecord(tnf: .media, type: mediaType, payload: longPayload)]),
        Vector(name: "long record with IL", hex: "CA 03 00 00 01 00 02" + a("a/b") + "69 64" + longPayload.hexString,
               records: [NDEFRecord(tnf: .media, type: mediaType, id: Array("id".utf8), payload: longPayload)]),
        Vector(name: "IL: id on a short record", hex: "D9 01 02 01 55 61 04 61",
               records: [NDEFRecord(tnf: .wellKnown, type: h("55"), id: h("61"), payload: h("04 61"))]),
        Vector(name: "three records: MB first, ME last",
               hex: "91 01 02 55 05 31   15 00 02 AA BB   50 00 00",
               records: [NDEFRecord(tnf: .wellKnown, type: h("55"), payload: h("05 31")),
                         NDEFRecord(tnf: .unknown, payload: h("AA BB")), .empty]),
        Vector(name: "TNF 1 well-known", hex: "D1 01 03 54 02 65 6E",
               records: [NDEFRecord(tnf: .wellKnown, type: h("54"), payload: h("02 65 6E"))]),
        Vector(name: "TNF 2 media", hex: "D2 0A 02" + a("text/plain") + a("hi"),
               records: [NDEFRecord(tnf: .media, type: Array("text/plain".utf8), payload: Array("hi".utf8))]),
        Vector(name: "TNF 3 absolute URI, empty payload", hex: "D3 13 00" + a("http://example.com/"),
               records: [NDEFRecord(tnf: .absoluteURI, type: Array("http://example.com/".utf8))]),
        Vector(name: "TNF 4 external", hex: "D4 0D 01" + a("example.com:t") + "01",
               records: [NDEFRecord(tnf: .external, type: Array("example.com:t".utf8), payload: [1])]),
        Vector(name: "TNF 5 unknown", hex: "D5 00 01 FF", records: [NDEFRecord(tnf: .unknown, payload: [0xFF])]),
        Vector(name: "TNF 5 unknown, empty payload", hex: "D5 00 00", records: [NDEFRecord(tnf: .unknown)]),
        Vector(name: "chunked 7 bytes by 3: initial, middle, terminating",
               hex: "B2 03 03 61 2F 62 41 42 43   36 00 03 44 45 46   56 00 01 47",
               records: [NDEFRecord(tnf: .media, type: mediaType, payload: Array("ABCDEFG".utf8))], chunkSize: 3),
        Vector(name: "chunked with id: IL only on the initial chunk",
               hex: "BA 03 04 01 61 2F 62 78 41 42 43 44   56 00 01 45",
               records: [NDEFRecord(tnf: .media, type: mediaType, id: h("78"), payload: Array("ABCDE".utf8))], chunkSize: 4),
        Vector(name: "chunked TNF 5 (no type)", hex: "B5 00 01 01   36 00 01 02   56 00 01 03",
               records: [NDEFRecord(tnf: .unknown, payload: [1, 2, 3])], chunkSize: 1),
        Vector(name: "chunk size applies per record; short payloads stay whole",
               hex: "B2 03 02 61 2F 62 41 42   16 00 01 43   55 00 01 09",
               records: [NDEFRecord(tnf: .media, type: mediaType, payload: Array("ABC".utf8)),
                         NDEFRecord(tnf: .unknown, payload: [9])], chunkSize: 2),
        Vector(name: "chunk size equal to the payload: not chunked", hex: "D5 00 02 01 02",
               records: [NDEFRecord(tnf: .unknown, payload: [1, 2])], chunkSize: 2),
        Vector(name: "long chunks: 300 bytes by 256, first chunk long, last short",
               hex: "A2 03 00 00 01 00" + a("a/b") + longPayload.hexString + "56 00 2C" + Array(longPayload[0..<44]).hexString,
               records: [NDEFRecord(tnf: .media, type: mediaType, payload: longPayload + longPayload[0..<44])], chunkSize: 256),
    ]

    @Test(arguments: vectors) func decodes(_ v: Vector) throws {
        let message = try NDEFMessage(bytes: h(v.hex))
        #expect(message.records == v.records)
        let relaxed = try NDEFMessage(bytes: h(v.hex), mode: .relaxed)
        #expect(relaxed.records == v.records)
    }

    @Test(arguments: vectors) func encodes(_ v: Vector) throws {
        #expect(try NDEFMessage(records: v.records).encoded(chunkSize: v.chunkSize).hexString == h(v.hex).hexString)
    }

    /// Valid but not canonical: decodes, and re-encodes to the canonical form.
    @Test(arguments: [
        ("long form for a short payload", "C1 01 00 00 00 02 55 05 31", "D1 01 02 55 05 31"),
        ("IL with a zero-length id", "D9 01 02 00 55 05 31", "D1 01 02 55 05 31"),
        ("empty middle chunk", "B5 00 01 01  36 00 00  56 00 01 02", "D5 00 02 01 02"),
        ("chunked with one terminating chunk only", "B5 00 01 01  56 00 00", "D5 00 01 01"),
    ])
    func decodesNonCanonical(_ name: String, _ input: String, _ canonical: String) throws {
        let message = try NDEFMessage(bytes: h(input))
        #expect(try message.encoded() == h(canonical), "\(name)")
    }

    @Test func encodingRefusesWhatStrictDecodingRejects() {
        func violation(_ records: [NDEFRecord], chunkSize: Int? = nil) -> NDEFError? {
            do { _ = try NDEFMessage(records: records).encoded(chunkSize: chunkSize); return nil } catch { return error }
        }
        #expect(violation([]) == .cannotEncode(recordIndex: nil, violation: .noRecords))
        #expect(violation([.empty, NDEFRecord(tnf: .unchanged, payload: [1])]) == .cannotEncode(recordIndex: 1, violation: .unchangedTypeNameFormat))
        #expect(violation([NDEFRecord(tnf: .empty, payload: [1])]) == .cannotEncode(recordIndex: 0, violation: .emptyRecordWithContent))
        #expect(violation([NDEFRecord(tnf: .empty, id: [1])]) == .cannotEncode(recordIndex: 0, violation: .emptyRecordWithContent))
        for tnf in [TypeNameFormat.wellKnown, .media, .absoluteURI, .external] {
            #expect(violation([NDEFRecord(tnf: tnf, payload: [1])]) == .cannotEncode(recordIndex: 0, violation: .missingType))
        }
        #expect(violation([NDEFRecord(tnf: .unknown, type: [1])]) == .cannotEncode(recordIndex: 0, violation: .unknownTypeWithType))
        #expect(violation([NDEFRecord(tnf: .media, type: Array(repeating: 0x61, count: 256))]) == .cannotEncode(recordIndex: 0, violation: .typeTooLong(256)))
        #expect(violation([NDEFRecord(tnf: .unknown, id: Array(repeating: 0x61, count: 256))]) == .cannotEncode(recordIndex: 0, violation: .idTooLong(256)))
        #expect(violation([NDEFRecord(tnf: .unknown, payload: [1, 2])], chunkSize: 0) == .cannotEncode(recordIndex: 0, violation: .invalidChunkSize(0)))
        #expect(violation([NDEFRecord(tnf: .unknown, payload: [1, 2])], chunkSize: -1) == .cannotEncode(recordIndex: 0, violation: .invalidChunkSize(-1)))
    }

    @Test func typeAndIDOf255BytesAreTheMaximum() throws {
        let record = NDEFRecord(tnf: .media, type: Array(repeating: 0x61, count: 255), id: Array(repeating: 0x62, count: 255), payload: [7])
        let bytes = try NDEFMessage(records: [record]).encoded()
        #expect(Array(bytes[0..<4]) == h("DA FF 01 FF"))
        #expect(bytes.count == 4 + 255 + 255 + 1)
        #expect(try NDEFMessage(bytes: bytes).records == [record])
    }
}
