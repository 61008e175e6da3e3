/// ASCII checks for type fields and language codes.
enum ASCII {
    static func lowercased(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b + 0x20 : b }
    static func isPrintable(_ b: UInt8) -> Bool { (0x20...0x7E).contains(b) }
    static func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
}

/// Decodes UTF-8 / UTF-16 text from a payload. Strict mode throws on any ill-formed sequence;
/// relaxed mode substitutes U+FFFD so the damage stays visible.
enum TextDecoding {
    /// The byte order of UTF-16 code units.
    enum ByteOrder { case bigEndian, littleEndian }

    struct Invalid: Error {}

    static func utf8(_ bytes: ArraySlice<UInt8>, strict: Bool) throws(Invalid) -> String {
        var iterator = bytes.makeIterator()
        return try decode(&iterator, codec: UTF8(), strict: strict, trailingOddByte: false)
    }

    static func utf16(_ bytes: ArraySlice<UInt8>, byteOrder: ByteOrder, strict: Bool) throws(Invalid) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while bytes.endIndex - i >= 2 {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(byteOrder == .bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        var iterator = units.makeIterator()
        return try decode(&iterator, codec: UTF16(), strict: strict, trailingOddByte: bytes.count % 2 == 1)
    }

    private static func decode<C: UnicodeCodec, I: IteratorProtocol>(
        _ iterator: inout I, codec: C, strict: Bool, trailingOddByte: Bool
    ) throws(Invalid) -> String where I.Element == C.CodeUnit {
        var codec = codec
        var scalars = String.UnicodeScalarView()
        loop: while true {
            switch codec.decode(&iterator) {
            case let .scalarValue(s): scalars.append(s)
            case .emptyInput: break loop
            case .error:
                if strict { throw Invalid() }
                scalars.append("\u{FFFD}")
            }
        }
        if trailingOddByte {
            if strict { throw Invalid() }
            scalars.append("\u{FFFD}")
        }
        return String(scalars)
    }
}
