/// Splits and percent-decodes a raw URI query into ordered fields (RFC 3986 §3.4, §2.1).
///
/// Decisions, documented once:
/// - Fields are separated by `&`; empty fields (`a=1&&b=2`, a trailing `&`) are skipped.
/// - A field is split at its first `=`; a field without `=` or with an empty key is an error.
/// - `+` is a literal plus, not a space: this is a URI query, not an HTML form.
/// - The decoded key and value must be UTF-8 without control or format characters.
/// - Keys are case-sensitive and must be unique.
enum QueryDecoding {
    /// - Throws: ``ZebraTagError/malformedQueryField(_:)``, ``ZebraTagError/invalidPercentEncoding(key:)``,
    ///   ``ZebraTagError/invalidUTF8(key:)``, ``ZebraTagError/controlCharacterInField(key:)``,
    ///   ``ZebraTagError/duplicateKey(_:)``.
    static func fields(_ query: ArraySlice<UInt8>) throws -> [QueryField] {
        var fields: [QueryField] = []
        var seen: Set<String> = []
        for raw in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard let eq = raw.firstIndex(of: UInt8(ascii: "=")), eq > raw.startIndex else {
                throw ZebraTagError.malformedQueryField(String(decoding: raw, as: UTF8.self))
            }
            let rawKey = String(decoding: raw[..<eq], as: UTF8.self)
            let key = try decode(raw[..<eq], rawKey: rawKey)
            let value = try decode(raw[(eq + 1)...], rawKey: rawKey)
            guard seen.insert(key).inserted else { throw ZebraTagError.duplicateKey(key) }
            fields.append(QueryField(key: key, value: value))
        }
        return fields
    }

    /// Percent-decodes one component and checks the result.
    static func decode(_ raw: ArraySlice<UInt8>, rawKey: String) throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let b = raw[i]
            if b == UInt8(ascii: "%") {
                guard raw.endIndex - i >= 3,
                      let hi = hexValue(raw[i + 1]), let lo = hexValue(raw[i + 2]) else {
                    throw ZebraTagError.invalidPercentEncoding(key: rawKey)
                }
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(b)
                i += 1
            }
        }
        var scalars = String.UnicodeScalarView()
        var iterator = out.makeIterator()
        var utf8 = Unicode.UTF8()
        decoding: while true {
            switch utf8.decode(&iterator) {
            case let .scalarValue(s):
                if isControlOrFormat(s) { throw ZebraTagError.controlCharacterInField(key: rawKey) }
                scalars.append(s)
            case .emptyInput:
                break decoding
            case .error:
                throw ZebraTagError.invalidUTF8(key: rawKey)
            }
        }
        return String(scalars)
    }

    /// C0, DEL, C1 (category Cc) and format characters (Cf: bidi overrides, zero-width joiners,
    /// the BOM), which can make a value display as something it is not.
    static func isControlOrFormat(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
