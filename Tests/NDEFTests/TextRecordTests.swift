import Testing
import NDEF

@Suite struct TextRecordTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var hex: String
        var value: TextRecord
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(name: "UTF-8", hex: "D1 01 08 54 02" + a("en") + a("Hello"),
               value: TextRecord(text: "Hello", language: "en")),
        Vector(name: "UTF-8, region language, non-ASCII", hex: "D1 01 0B 54 05" + a("fr-FR") + "C3 A9 74 C3 A9",
               value: TextRecord(text: "été", language: "fr-FR")),
        Vector(name: "UTF-8, empty text", hex: "D1 01 03 54 02" + a("en"),
               value: TextRecord(text: "", language: "en")),
        Vector(name: "UTF-16 big-endian without BOM", hex: "D1 01 07 54 82" + a("en") + "00 48 00 69",
               value: TextRecord(text: "Hi", language: "en", encoding: .utf16BigEndian)),
        Vector(name: "UTF-16 big-endian with BOM", hex: "D1 01 09 54 82" + a("en") + "FE FF 00 48 00 69",
               value: TextRecord(text: "Hi", language: "en", encoding: .utf16BigEndianWithBOM)),
        Vector(name: "UTF-16 little-endian with BOM", hex: "D1 01 09 54 82" + a("en") + "FF FE 48 00 69 00",
               value: TextRecord(text: "Hi", language: "en", encoding: .utf16LittleEndianWithBOM)),
        Vector(name: "UTF-16 surrogate pair (U+1F600)", hex: "D1 01 07 54 82" + a("de") + "D8 3D DE 00",
               value: TextRecord(text: "😀", language: "de", encoding: .utf16BigEndian)),
        Vector(name: "UTF-16 LE surrogate pair", hex: "D1 01 09 54 82" + a("de") + "FF FE 3D D8 00 DE",
               value: TextRecord(text: "😀", language: "de", encoding: .utf16LittleEndianWithBOM)),
        Vector(name: "UTF-8 4-byte sequence", hex: "D1 01 07 54 02" + a("ja") + "F0 9F 98 80",
               value: TextRecord(text: "😀", language: "ja")),
    ]

    @Test(arguments: vectors) func decodes(_ v: Vector) throws {
        let record = try NDEFMessage(bytes: h(v.hex)).records[0]
        #expect(try record.parsed() == .text(v.value))
        #expect(try TextRecord(record: record, mode: .relaxed) == v.value)
    }

    @Test(arguments: vectors) func encodes(_ v: Vector) throws {
        #expect(try NDEFMessage(records: [v.value.record()]).encoded() == h(v.hex))
    }

    @Test func convenienceBuildsTheSameRecord() throws {
        #expect(try NDEFRecord.text("Hello", language: "en") == TextRecord(text: "Hello", language: "en").record())
        #expect(try NDEFRecord.text("hi", language: "en").payload == h("02 65 6E 68 69"))
    }

    func payloadError(_ payload: String, _ mode: DecodingMode) -> NDEFError? {
        do { _ = try TextRecord(record: NDEFRecord(tnf: .wellKnown, type: [0x54], payload: h(payload)), mode: mode); return nil }
        catch { return error }
    }

    func relaxed(_ payload: String) throws -> TextRecord {
        try TextRecord(record: NDEFRecord(tnf: .wellKnown, type: [0x54], payload: h(payload)), mode: .relaxed)
    }

    @Test func reservedBitIsStrictOnly() throws {
        #expect(payloadError("42 65 6E 68 69", .strict) == .invalidPayload(recordType: "T", offset: 0, violation: .reservedBitSet))
        #expect(try relaxed("42 65 6E 68 69") == TextRecord(text: "hi", language: "en"))
    }

    @Test func languageLengthInBits5to0() throws {
        // 0x3F: the largest length; 0xC0 bits are flags. Length 2 with bit 7 set means UTF-16.
        #expect(payloadError("00 68 69", .strict) == .invalidPayload(recordType: "T", offset: 0, violation: .emptyLanguageCode))
        #expect(try relaxed("00 68 69") == TextRecord(text: "hi", language: ""))
        #expect(payloadError("05 65 6E", .relaxed) == .invalidPayload(recordType: "T", offset: 1, violation: .truncated(needed: 5, available: 2)))
        #expect(payloadError("3F", .relaxed) == .invalidPayload(recordType: "T", offset: 1, violation: .truncated(needed: 63, available: 0)))
        #expect(payloadError("02 65 20", .strict) == .invalidPayload(recordType: "T", offset: 1, violation: .invalidLanguageCode))
        #expect(payloadError("", .relaxed) == .invalidPayload(recordType: "T", offset: 0, violation: .empty))
    }

    @Test func malformedTextStrictVersusRelaxed() throws {
        #expect(payloadError("02 65 6E 68 FF", .strict) == .invalidPayload(recordType: "T", offset: 3, violation: .invalidUTF8))
        #expect(try relaxed("02 65 6E 68 FF").text == "h\u{FFFD}")
        // Odd UTF-16 byte count.
        #expect(payloadError("82 65 6E 00 48 00", .strict) == .invalidPayload(recordType: "T", offset: 3, violation: .invalidUTF16))
        #expect(try relaxed("82 65 6E 00 48 00").text == "H\u{FFFD}")
        // Unpaired high surrogate.
        #expect(payloadError("82 65 6E D8 3D 00 48", .strict) == .invalidPayload(recordType: "T", offset: 3, violation: .invalidUTF16))
        #expect(try relaxed("82 65 6E D8 3D 00 48").text == "\u{FFFD}H")
        // An overlong UTF-8 encoding of "/" is ill-formed.
        #expect(payloadError("02 65 6E C0 AF", .strict) == .invalidPayload(recordType: "T", offset: 3, violation: .invalidUTF8))
    }

    @Test func leadingBOMCharacterInBigEndianTextIsProtected() throws {
        for first in ["\u{FEFF}", "\u{FFFE}"] {
            let value = TextRecord(text: first + "A", language: "en", encoding: .utf16BigEndian)
            let record = try value.record()
            #expect(Array(record.payload[3...]) == h("FE FF") + Array(first.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + h("00 41"))
            #expect(try TextRecord(record: record).text == first + "A")
        }
    }

    @Test func encodingRejectsBadLanguageCodes() {
        for language in ["", String(repeating: "a", count: 64), "é"] {
            #expect(throws: NDEFError.cannotEncode(recordIndex: nil, violation: .invalidLanguageCode(language))) {
                try TextRecord(text: "x", language: language).record()
            }
        }
        #expect((try? TextRecord(text: "x", language: String(repeating: "a", count: 63)).record())?.payload.first == 0x3F)
    }
}
