/// The 3-bit Type Name Format field of an NDEF record header (NFC Forum NDEF 1.0 §3.2.6).
/// Value 7 is reserved and is rejected by the decoder, so it has no case here.
public enum TypeNameFormat: UInt8, Sendable, Hashable, CaseIterable {
    /// No type, no id, no payload.
    case empty = 0
    /// NFC Forum well-known type (`urn:nfc:wkt:`): `U`, `T`, `Sp`, … Compared case-sensitively.
    case wellKnown = 1
    /// A media type (RFC 2046) such as `application/json`.
    case media = 2
    /// An absolute URI (RFC 3986) names the type.
    case absoluteURI = 3
    /// NFC Forum external type (`urn:nfc:ext:`): `domain:type`, compared case-insensitively.
    case external = 4
    /// The payload type is unknown; the type field must be empty.
    case unknown = 5
    /// Middle and terminating chunks of a chunked record; never seen on a decoded record.
    case unchanged = 6
}
