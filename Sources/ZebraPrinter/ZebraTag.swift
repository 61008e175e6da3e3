import NDEF

/// Decodes the URL on a Zebra printer's NFC tag ("Print Touch", docs/zebra.md §1) into a
/// ``PrinterIdentity``.
///
/// Accepted: scheme `http` or `https` (any case); host exactly `zebra.com` or `www.zebra.com`
/// (any case, no trailing dot); no user-info; no port, or the scheme's default written out
/// (`:80` for http, `:443` for https); path exactly `/apps/r/nfc`; no fragment; a query.
/// The query is decoded as described on `QueryDecoding` (`+` is literal, keys unique).
///
/// Fields: `s` serial (required), `c` model, `v` version: visible ASCII, at most
/// ``maxFieldLength`` characters. `mE`, `mW`, `mB`, `mBL`: MACs (see ``MACAddress/init(string:)``);
/// empty or all-zero means absent. A tag may carry `mB`, `mBL` or both; both are reported.
/// Unknown keys are kept, in tag order, in ``PrinterIdentity/otherFields``.
public enum ZebraTag {
    /// Longest URI considered, in UTF-8 bytes. A Zebra tag (NTAG213) holds 144 bytes in all.
    public static let maxURILength = 1024
    /// Longest `s`, `c` or `v` value, in characters.
    public static let maxFieldLength = 64

    /// Decodes a Zebra tag URL.
    /// - Throws: ``ZebraTagError`` saying why the URI is not a Zebra tag or why its query is unusable.
    public static func identity(fromURI uri: String) throws -> PrinterIdentity {
        let parsed = try ZebraURI(parsing: uri)
        guard let query = parsed.rawQuery else { throw ZebraTagError.missingQuery }
        return try identity(fromFields: QueryDecoding.fields(query))
    }

    /// Whether the URI is a Zebra tag URL by scheme, host and path (the query is not checked;
    /// ``identity(fromURI:)`` may still throw for it). Lookalike hosts give false.
    public static func isZebraURI(_ uri: String) -> Bool {
        (try? ZebraURI(parsing: uri)) != nil
    }

    /// Decodes the payload of an NDEF URI record (`D1 01 len 55 | payload`): byte 0 is the
    /// URI identifier code, the rest is UTF-8. Only the codes a Zebra URL can use are expanded:
    /// `00` (none), `01` `http://www.`, `02` `https://www.`, `03` `http://`, `04` `https://`.
    /// - Throws: ``ZebraTagError/unsupportedURIPrefix(_:)`` for an empty payload or another code,
    ///   then whatever ``identity(fromURI:)`` throws.
    public static func identity(fromURIPayload payload: [UInt8]) throws -> PrinterIdentity {
        guard let code = payload.first, code <= 0x04, let prefix = URIPrefixes.prefix(for: code) else {
            throw ZebraTagError.unsupportedURIPrefix(payload.first)
        }
        // Bounded before decoding; an invalid UTF-8 byte becomes U+FFFD, rejected as a URI character.
        guard payload.count - 1 <= maxURILength else {
            throw ZebraTagError.uriTooLong(length: payload.count - 1 + prefix.utf8.count, limit: maxURILength)
        }
        return try identity(fromURI: prefix + String(decoding: payload.dropFirst(), as: UTF8.self))
    }

    /// Maps decoded query fields to an identity.
    static func identity(fromFields fields: [QueryField]) throws -> PrinterIdentity {
        var identity = PrinterIdentity(serial: "")
        var serial: String?
        for field in fields {
            switch field.key {
            case "s": serial = try text(field, required: true)
            case "c": identity.model = try text(field, required: false)
            case "v": identity.version = try text(field, required: false)
            case "mE": identity.ethernet = try mac(field)
            case "mW": identity.wifi = try mac(field)
            case "mB": identity.bluetooth = try mac(field)
            case "mBL": identity.bluetoothLE = try mac(field)
            default: identity.otherFields.append(field)
            }
        }
        guard let serial else { throw ZebraTagError.missingSerial }
        // A Bluetooth field written as all zeros beside another Bluetooth address is that radio
        // absent; when no Bluetooth field holds a real address, the zeros are no printer's address
        // (pairing would go looking for 00:00:00:00:00:00): refused, naming the field.
        if identity.bluetooth == nil, identity.bluetoothLE == nil,
           let zero = fields.first(where: { ($0.key == "mB" || $0.key == "mBL") && MACAddress(string: $0.value)?.isZero == true }) {
            throw ZebraTagError.notADeviceAddress(key: zero.key, value: zero.value, reason: .allZero)
        }
        identity.serial = serial
        return identity
    }

    /// Empty or all zeros → nil (absent, docs/zebra.md §1; a tag whose only Bluetooth address is
    /// all zeros is refused by the caller); a broadcast or multicast address is no printer's:
    /// refused. Otherwise a valid MAC or an error.
    private static func mac(_ field: QueryField) throws -> MACAddress? {
        if field.value.isEmpty { return nil }
        guard let mac = MACAddress(string: field.value) else {
            throw ZebraTagError.malformedMAC(key: field.key, value: field.value)
        }
        if mac.isZero { return nil }
        if mac.isBroadcast { throw ZebraTagError.notADeviceAddress(key: field.key, value: field.value, reason: .broadcast) }
        if mac.isMulticast { throw ZebraTagError.notADeviceAddress(key: field.key, value: field.value, reason: .multicast) }
        return mac
    }

    /// Visible ASCII, bounded; an empty optional field is absent (nil).
    private static func text(_ field: QueryField, required: Bool) throws -> String? {
        let value = field.value
        if value.isEmpty {
            if required { throw ZebraTagError.invalidField(key: field.key, value: value, reason: .empty) }
            return nil
        }
        guard value.utf8.count <= maxFieldLength else {
            throw ZebraTagError.invalidField(key: field.key, value: value, reason: .tooLong(limit: maxFieldLength))
        }
        guard value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ZebraTagError.invalidField(key: field.key, value: value, reason: .notVisibleASCII)
        }
        return value
    }
}
