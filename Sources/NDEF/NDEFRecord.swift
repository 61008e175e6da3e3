/// One NDEF record as it is on the wire, after chunks are reassembled: TNF, type, id and payload.
/// The framing flags (MB, ME, CF, SR, IL) are not kept: the encoder derives them.
/// Typed views of the payload come from `parsed(mode:limits:)`.
public struct NDEFRecord: Sendable, Hashable {
    public var tnf: TypeNameFormat
    public var type: [UInt8]
    public var id: [UInt8]
    public var payload: [UInt8]

    public init(tnf: TypeNameFormat, type: [UInt8] = [], id: [UInt8] = [], payload: [UInt8] = []) {
        self.tnf = tnf
        self.type = type
        self.id = id
        self.payload = payload
    }

    /// The empty record (TNF 0, nothing else): `D0 00 00` when alone in a message.
    public static let empty = NDEFRecord(tnf: .empty)

    /// The type as text when every byte is printable ASCII (0x20–0x7E), else nil.
    public var printableType: String? { Self.printableASCII(type) }

    /// The id as text when every byte is printable ASCII (0x20–0x7E), else nil.
    public var printableID: String? { Self.printableASCII(id) }

    static func printableASCII(_ bytes: [UInt8]) -> String? {
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when this record's TNF is `tnf` and its type equals `name`. Well-known types compare
    /// case-sensitively (NFC Forum RTD 1.0 §2.3); external types (RTD §2.5) and media types
    /// (RFC 2045) ignore ASCII case.
    public func hasType(_ tnf: TypeNameFormat, _ name: String) -> Bool {
        guard self.tnf == tnf else { return false }
        let expected = Array(name.utf8)
        guard type.count == expected.count else { return false }
        if tnf == .external || tnf == .media {
            return zip(type, expected).allSatisfy { ASCII.lowercased($0) == ASCII.lowercased($1) }
        }
        return type == expected
    }
}
