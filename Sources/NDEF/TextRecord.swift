/// A Text record: well-known type `T` (NFC Forum Text RTD 1.0 §3).
/// Payload: status byte (bit 7: UTF-16, bit 6: reserved 0, bits 5..0: language code length),
/// the IANA language code in ASCII, then the text.
public struct TextRecord: NDEFPayloadCodable {
    public static let type: [UInt8] = [0x54]  // "T"

    /// How the text is encoded. UTF-16 without a byte order mark is big-endian (Text RTD §3.4),
    /// so little-endian always carries one. A `.utf16BigEndian` text that starts with U+FEFF or
    /// U+FFFE is written with a BOM, or the reader would take its first character for one.
    public enum Encoding: Sendable, Hashable {
        case utf8
        case utf16BigEndian
        case utf16BigEndianWithBOM
        case utf16LittleEndianWithBOM

        public var isUTF16: Bool { self != .utf8 }
    }

    public var text: String
    /// IANA language code such as `en` or `en-US`.
    public var language: String
    public var encoding: Encoding

    public init(text: String, language: String, encoding: Encoding = .utf8) {
        self.text = text
        self.language = language
        self.encoding = encoding
    }

    /// - Throws: `.invalidPayload`: empty payload, language longer than the payload (both modes);
    ///   strict only: reserved bit 6 set, zero-length or non-ASCII language code, ill-formed text.
    public init(record: NDEFRecord, mode: DecodingMode = .strict) throws(NDEFError) {
        func fail(_ offset: Int, _ v: NDEFError.PayloadViolation) -> NDEFError {
            .invalidPayload(recordType: "T", offset: offset, violation: v)
        }
        let strict = mode == .strict
        guard record.hasType(.wellKnown, "T") else { throw fail(0, .wrongRecordType(expected: "Text (T)")) }
        let payload = record.payload
        guard let status = payload.first else { throw fail(0, .empty) }
        if strict, status & 0x40 != 0 { throw fail(0, .reservedBitSet) }
        let languageLength = Int(status & 0x3F)
        if strict, languageLength == 0 { throw fail(0, .emptyLanguageCode) }
        guard payload.count - 1 >= languageLength else {
            throw fail(1, .truncated(needed: languageLength, available: payload.count - 1))
        }
        let languageBytes = payload[1..<1 + languageLength]
        if strict, !languageBytes.allSatisfy({ ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == 0x2D }) {
            throw fail(1, .invalidLanguageCode)
        }
        language = String(decoding: languageBytes, as: UTF8.self)

        var body = payload[(1 + languageLength)...]
        let bodyOffset = 1 + languageLength
        do {
            if status & 0x80 == 0 {
                encoding = .utf8
                text = try TextDecoding.utf8(body, strict: strict)
            } else {
                var order = TextDecoding.ByteOrder.bigEndian
                encoding = .utf16BigEndian
                if body.starts(with: [0xFE, 0xFF]) {
                    encoding = .utf16BigEndianWithBOM
                    body = body.dropFirst(2)
                } else if body.starts(with: [0xFF, 0xFE]) {
                    encoding = .utf16LittleEndianWithBOM
                    order = .littleEndian
                    body = body.dropFirst(2)
                }
                text = try TextDecoding.utf16(body, byteOrder: order, strict: strict)
            }
        } catch {
            throw fail(bodyOffset, status & 0x80 == 0 ? .invalidUTF8 : .invalidUTF16)
        }
    }

    /// - Throws: `.cannotEncode(.invalidLanguageCode)` unless the language is 1–63 ASCII bytes.
    public func record() throws(NDEFError) -> NDEFRecord {
        let lang = Array(language.utf8)
        guard (1...63).contains(lang.count), lang.allSatisfy({ $0 < 0x80 }) else {
            throw NDEFError.cannotEncode(recordIndex: nil, violation: .invalidLanguageCode(language))
        }
        var payload: [UInt8] = [UInt8(lang.count) | (encoding.isUTF16 ? 0x80 : 0)] + lang
        switch encoding {
        case .utf8:
            payload += Array(text.utf8)
        case .utf16BigEndian, .utf16BigEndianWithBOM:
            let first = text.unicodeScalars.first?.value
            if encoding == .utf16BigEndianWithBOM || first == 0xFEFF || first == 0xFFFE { payload += [0xFE, 0xFF] }
            for u in text.utf16 { payload += [UInt8(u >> 8), UInt8(u & 0xFF)] }
        case .utf16LittleEndianWithBOM:
            payload += [0xFF, 0xFE]
            for u in text.utf16 { payload += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        }
        return NDEFRecord(tnf: .wellKnown, type: Self.type, payload: payload)
    }
}
