/// The PC/SC 2.02 Part 3 Supplement "Manage Session" and "Transparent Exchange" commands
/// (§3.2.7.1 / §3.2.7.2 of "Interoperability Specification for ICCs and Personal Computer Systems,
/// Part 3. Supplemental Document for Contactless ICCs", rev. 2.02.00, April 2010), as far as raw
/// Type 2 frames need them: start a session, transceive one frame (the reader appends and checks
/// CRC_A, the default when no transmission-flag DO 90 is sent), end the session.
///
/// Reader support, as the issue tracker and vendors state it: Identiv uTrust 37x0 F, HID OMNIKEY
/// 5022/5422, ACS ACR1252U and SpringCard couplers. These exact sequences were not checked against
/// each vendor manual here (only the specification); a reader that refuses them (`6A 81`, `6D 00`,
/// `68 00`) makes raw commands `.unsupported`, and a trace (`--trace`) shows what it did.
public enum PCSCTransparentExchange {
    /// `FF C2 00 00 02 81 00`: Manage Session, DO 81 "Start Transparent Session".
    public static let startSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00]
    /// `FF C2 00 00 02 82 00`: Manage Session, DO 82 "End Transparent Session".
    public static let endSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00]

    /// `FF C2 00 01 Lc 95 len frame 00`: Transparent Exchange, DO 95 "Transceive" (Le 00).
    /// - Throws: `.unsupported` for an empty frame or one longer than a short APDU carries.
    public static func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        guard !frame.isEmpty, frame.count <= 250 else {
            throw TagError.unsupported("a transparent exchange of \(frame.count) bytes")
        }
        let dataObject = [0x95] + berLength(frame.count) + frame
        return [0xFF, 0xC2, 0x00, 0x01, UInt8(dataObject.count)] + dataObject + [0x00]
    }

    /// What the reader answered for one command: its response data objects.
    public struct Response: Equatable, Sendable {
        /// DO C0 "Generic Error Status": (index of the failing DO, SW1, SW2); `00 90 00` is success.
        public var errorStatus: (index: UInt8, sw1: UInt8, sw2: UInt8)?
        /// DO 97 "ICC response": the tag's answer without CRC.
        public var iccResponse: [UInt8]?
        /// DO 92 "Response Bit Framing": valid bits in the last byte (4 for an ACK/NAK).
        public var lastByteBits: UInt8?

        public static func == (a: Response, b: Response) -> Bool {
            a.iccResponse == b.iccResponse && a.lastByteBits == b.lastByteBits
                && a.errorStatus?.index == b.errorStatus?.index && a.errorStatus?.sw1 == b.errorStatus?.sw1
                && a.errorStatus?.sw2 == b.errorStatus?.sw2
        }
    }

    /// Parses the data part of a Manage Session or Transparent Exchange reply (SW already removed).
    /// - Throws: `.malformedReply` for a truncated or overlong TLV.
    public static func parse(_ data: [UInt8]) throws(TagError) -> Response {
        var response = Response()
        var i = 0
        while i < data.count {
            var tag = Int(data[i]); i += 1
            if tag & 0x1F == 0x1F { // two-byte tag such as 5F 46
                guard i < data.count else { throw TagError.malformedReply("transparent exchange reply ends inside a tag") }
                tag = tag << 8 | Int(data[i]); i += 1
            }
            guard i < data.count else { throw TagError.malformedReply("transparent exchange DO \(String(tag, radix: 16)) has no length") }
            var length = Int(data[i]); i += 1
            if length == 0x81 || length == 0x82 {
                let count = length - 0x80
                guard i + count <= data.count else { throw TagError.malformedReply("transparent exchange length truncated") }
                length = data[i ..< i + count].reduce(0) { $0 << 8 | Int($1) }
                i += count
            } else if length > 0x7F {
                throw TagError.malformedReply("transparent exchange length byte \([UInt8(length)].hexString)")
            }
            guard i + length <= data.count else {
                throw TagError.malformedReply("transparent exchange DO \(String(tag, radix: 16)) of \(length) bytes overruns the reply")
            }
            let value = Array(data[i ..< i + length]); i += length
            switch tag {
            case 0xC0:
                guard value.count == 3 else { throw TagError.malformedReply("error status DO C0 of \(value.count) bytes") }
                response.errorStatus = (value[0], value[1], value[2])
            case 0x97: response.iccResponse = value
            case 0x92: response.lastByteBits = value.first
            default: break // 80 version, 96 response status, … not needed here
            }
        }
        return response
    }

    /// Why a reader refused to start (or switch) a transparent session, or nil when `error` is
    /// something else (the tag gone, the reader gone, the reader busy): any status word (`6A 81`,
    /// `6D 00` not implemented; `63 00`, an ACS reader's "operation failed", seen answering `FF C2`
    /// on firmwares without it; `69 86`, `6F 00`), a transport error (a reader that chokes on the
    /// unknown pseudo-APDU) or a reply that is no session answer. Managing a session asks the
    /// reader, not the tag, so none of these says anything about the tag: every family goes on with
    /// its plain path and remembers the refusal per reader.
    /// docs/tags-and-readers.md §3 "Transparent exchange refused".
    public static func startRefusal(_ error: TagError) -> String? {
        switch error {
        case let .status(sw1, sw2): return statusWordText(sw1, sw2)
        case let .unsupported(why), let .malformedReply(why): return why
        case let .transport(code, message): return "\(message), code \(code)"
        default: return nil
        }
    }

    /// A status word that refuses the command itself rather than reporting on the tag: ISO 7816-4
    /// §5.1.3's checking errors, SW1 `67`…`6F` (wrong length, CLA/INS/P1-P2 not supported, command
    /// not allowed, no precise diagnosis). `62`/`63`/`64` (warnings, execution errors such as "no
    /// answer") stay the tag's.
    public static func refusesCommand(_ sw1: UInt8) -> Bool {
        (0x67...0x6F).contains(sw1)
    }

    /// BER-TLV length: one byte below 128, `81 xx` up to 255.
    static func berLength(_ n: Int) -> [UInt8] {
        n < 0x80 ? [UInt8(n)] : [0x81, UInt8(n)]
    }
}
