import NDEF

/// Why a URI is not taken for a Zebra printer tag, or why a Zebra tag's query is unusable
/// (docs/zebra.md §1). Every case says where the problem is; nothing is silently repaired.
public enum ZebraTagError: Error, Hashable, Sendable {
    /// An NDEF URI record payload that is empty (nil) or starts with an identifier code other than
    /// `00`–`04` (the codes a Zebra URL can use).
    case unsupportedURIPrefix(UInt8?)
    /// The URI is longer than ``ZebraTag/maxURILength`` UTF-8 bytes (checked before anything else).
    case uriTooLong(length: Int, limit: Int)
    /// A raw control character (C0 or DEL) at this UTF-8 byte offset of the URI.
    case controlCharacter(offset: Int)
    /// A raw byte RFC 3986 does not allow in a URI (space, `"`, `<`, `\`, non-ASCII, …) at this offset.
    case invalidCharacter(byte: UInt8, offset: Int)
    /// No `scheme:` at the start.
    case missingScheme
    /// A scheme other than `http` or `https` (as written).
    case unsupportedScheme(String)
    /// The scheme is not followed by `//host`.
    case missingAuthority
    /// The authority has a user-info part (`zebra.com@evil.example`): never accepted.
    case userInfoNotAllowed(authority: String)
    /// A port other than the scheme's default (80 for http, 443 for https), or an empty port.
    case unsupportedPort(String)
    /// The host is not exactly `zebra.com` or `www.zebra.com` (case-insensitive; no trailing dot).
    case hostNotZebra(String)
    /// The path is not exactly `/apps/r/nfc` (no dot segments, no trailing slash, no encoding).
    case pathNotZebra(String)
    /// A `#fragment`: Zebra tags have none.
    case fragmentNotAllowed
    /// No `?query` after the path.
    case missingQuery
    /// A query field with no `=` or an empty key (the raw field text).
    case malformedQueryField(String)
    /// A `%` not followed by two hex digits, in the field with this raw key (as written, still encoded).
    case invalidPercentEncoding(key: String)
    /// The percent-decoded key or value of this field (raw key as written) is not valid UTF-8.
    case invalidUTF8(key: String)
    /// The decoded key or value of this field (raw key as written) holds a control or format character
    /// (C0, DEL, C1, bidi overrides, zero-width characters), e.g. from `%0A` or `%00`.
    case controlCharacterInField(key: String)
    /// The same key appears twice; which one is meant would be a guess.
    case duplicateKey(String)
    /// A MAC field (`mE`, `mW`, `mB`, `mBL`) that is not 12 hex digits (optionally `:`- or `-`-separated).
    case malformedMAC(key: String, value: String)
    /// A MAC field holding a well-formed address that cannot be one printer's: broadcast
    /// (`FF:FF:FF:FF:FF:FF`) or multicast (first octet odd). Pairing with it would reach no printer,
    /// or the wrong devices.
    case notADeviceAddress(key: String, value: String, reason: AddressProblem)
    /// No `s` (serial) field.
    case missingSerial
    /// A known text field (`s`, `c`, `v`) that is empty where a value is required, longer than
    /// ``ZebraTag/maxFieldLength``, or holds a character outside visible ASCII (0x21–0x7E).
    case invalidField(key: String, value: String, reason: FieldProblem)

    /// Why a MAC in ``ZebraTagError/notADeviceAddress(key:value:reason:)`` is no printer's.
    public enum AddressProblem: Hashable, Sendable {
        case broadcast
        case multicast
        /// `00:00:00:00:00:00` as the tag's only Bluetooth address.
        case allZero
    }

    /// What is wrong with a text field in ``ZebraTagError/invalidField(key:value:reason:)``.
    public enum FieldProblem: Hashable, Sendable {
        case empty
        case tooLong(limit: Int)
        case notVisibleASCII
    }
}

extension ZebraTagError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .unsupportedURIPrefix(code):
            guard let code else { return "URI record payload is empty" }
            return "URI identifier code 0x\([code].hexString) cannot start a Zebra URL"
        case let .uriTooLong(length, limit):
            return "URI is \(length) bytes, longer than the \(limit)-byte limit"
        case let .controlCharacter(offset):
            return "control character at byte \(offset) of the URI"
        case let .invalidCharacter(byte, offset):
            return "byte 0x\([byte].hexString) at offset \(offset) is not allowed in a URI"
        case .missingScheme:
            return "URI has no scheme"
        case let .unsupportedScheme(s):
            return "scheme \"\(s)\" is not http or https"
        case .missingAuthority:
            return "URI has no //host part"
        case let .userInfoNotAllowed(a):
            return "authority \"\(a)\" has a user-info part (\"@\"): not a Zebra tag"
        case let .unsupportedPort(p):
            return "port \"\(p)\" is not the scheme's default"
        case let .hostNotZebra(h):
            return "host \"\(h)\" is not zebra.com or www.zebra.com"
        case let .pathNotZebra(p):
            return "path \"\(p)\" is not /apps/r/nfc"
        case .fragmentNotAllowed:
            return "URI has a #fragment; Zebra tags have none"
        case .missingQuery:
            return "URI has no ?query"
        case let .malformedQueryField(f):
            return "query field \"\(f)\" is not key=value"
        case let .invalidPercentEncoding(k):
            return "field \"\(k)\" has a bad percent escape"
        case let .invalidUTF8(k):
            return "field \"\(k)\" does not decode to UTF-8"
        case let .controlCharacterInField(k):
            return "field \"\(k)\" holds a control character"
        case let .duplicateKey(k):
            return "key \"\(k)\" appears more than once"
        case let .malformedMAC(k, v):
            return "\(k)=\"\(v)\" is not a MAC address (12 hex digits)"
        case let .notADeviceAddress(k, v, reason):
            let why: String
            switch reason {
            case .broadcast: why = "the broadcast address"
            case .multicast: why = "a multicast (group) address: its first octet is odd"
            case .allZero: why = "all zeros, and the tag names no other Bluetooth address"
            }
            return "\(k)=\"\(v)\" is not a printer address: it is \(why)"
        case .missingSerial:
            return "no serial number (s=) on the tag"
        case let .invalidField(k, v, reason):
            switch reason {
            case .empty: return "\(k) is empty"
            case let .tooLong(limit): return "\(k) is longer than \(limit) characters"
            case .notVisibleASCII: return "\(k)=\"\(v)\" holds characters other than visible ASCII"
            }
        }
    }
}
