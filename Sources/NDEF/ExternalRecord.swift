/// An NFC Forum external type record: TNF 4, type `domain:type` (the `urn:nfc:ext:` prefix is not
/// on the wire; NFC Forum RTD 1.0 §3.2). Names compare case-insensitively.
public struct ExternalRecord: NDEFPayloadCodable {
    public static let urnPrefix = "urn:nfc:ext:"

    public var domain: String
    public var type: String
    public var payload: [UInt8]

    public init(domain: String, type: String, payload: [UInt8] = []) {
        self.domain = domain
        self.type = type
        self.payload = payload
    }

    /// `domain:type` as on the wire.
    public var name: String { "\(domain):\(type)" }

    /// True when `name` (`domain:type`, with or without `urn:nfc:ext:`) names this type, ignoring case.
    public func matches(_ name: String) -> Bool {
        var other = name.lowercased()
        if other.hasPrefix(Self.urnPrefix) { other.removeFirst(Self.urnPrefix.count) }
        return self.name.lowercased() == other
    }

    /// - Throws: `.invalidPayload(.invalidExternalType)` in strict mode unless the type is
    ///   printable ASCII without spaces with a non-empty domain and type around a `:`.
    ///   Relaxed: a type without `:` gives an empty domain.
    public init(record: NDEFRecord, mode: DecodingMode = .strict) throws(NDEFError) {
        guard record.tnf == .external else {
            throw NDEFError.invalidPayload(recordType: "external", offset: 0, violation: .wrongRecordType(expected: "external (TNF 4)"))
        }
        if mode == .strict, !Self.isValid(record.type) {
            throw NDEFError.invalidPayload(recordType: "external", offset: 0, violation: .invalidExternalType)
        }
        let text = String(decoding: record.type, as: UTF8.self)
        if let colon = text.firstIndex(of: ":") {
            domain = String(text[..<colon])
            type = String(text[text.index(after: colon)...])
        } else {
            domain = ""
            type = text
        }
        payload = record.payload
    }

    /// - Throws: `.cannotEncode(.invalidType)` for a name the strict decoder would reject.
    public func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(name.utf8)
        guard Self.isValid(type) else { throw NDEFError.cannotEncode(recordIndex: nil, violation: .invalidType(name)) }
        return NDEFRecord(tnf: .external, type: type, payload: payload)
    }

    static func isValid(_ type: [UInt8]) -> Bool {
        guard type.allSatisfy({ ASCII.isPrintable($0) && $0 != 0x20 }), let colon = type.firstIndex(of: 0x3A) else { return false }
        return colon > 0 && colon < type.count - 1
    }
}
