import NDEF

/// Splits and percent-decodes a raw URI query into ordered fields (RFC 3986 §3.4, §2.1).
///
/// Decisions, documented once:
/// - Fields are separated by `&`; empty fields (`a=1&&b=2`, a trailing `&`) are skipped.
/// - A field is split at its first `=`; a field without `=` or with an empty key is an error.
/// - `+` is a literal plus, not a space: this is a URI query, not an HTML form.
/// - The decoded key and value must be UTF-8 without control or format characters (`TextCheck`).
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
                guard raw.endIndex - i >= 3, let byte = [UInt8](hex: String(decoding: raw[(i + 1)...(i + 2)], as: UTF8.self)),
                      byte.count == 1 else {
                    throw ZebraTagError.invalidPercentEncoding(key: rawKey)
                }
                out += byte
                i += 3
            } else {
                out.append(b)
                i += 1
            }
        }
        switch TextCheck.decode(out) {
        case let .success(text): return text
        case .failure(.invalidUTF8): throw ZebraTagError.invalidUTF8(key: rawKey)
        case .failure(.controlCharacter): throw ZebraTagError.controlCharacterInField(key: rawKey)
        }
    }
}
