import Foundation

/// Core NFC's `NFCISO7816APDU`: one ISO 7816-4 command APDU.
///
/// Le (`expectedResponseLength`): -1 = no Le field; 1…256 short (256 is sent as `00`);
/// 257…65536 extended (65536 is sent as `00 00`). More than 255 data bytes or Le > 256 makes the
/// whole APDU extended (ISO 7816-4 §5.1).
open class NFCISO7816APDU: NSObject, NSCopying {
    public let instructionClass: UInt8
    public let instructionCode: UInt8
    public let p1Parameter: UInt8
    public let p2Parameter: UInt8
    /// The command data field; nil when the APDU has none.
    public let data: Data?
    /// Le as a byte count; -1 when no response data is expected.
    public let expectedResponseLength: Int

    public init(instructionClass: UInt8, instructionCode: UInt8, p1Parameter: UInt8, p2Parameter: UInt8,
                data: Data, expectedResponseLength: Int) {
        self.instructionClass = instructionClass
        self.instructionCode = instructionCode
        self.p1Parameter = p1Parameter
        self.p2Parameter = p2Parameter
        self.data = data
        self.expectedResponseLength = expectedResponseLength
    }

    /// Parses an encoded APDU (cases 1, 2, 3, 4, short and extended). nil when the bytes are not
    /// exactly one well-formed APDU.
    public init?(data apdu: Data) {
        let b = [UInt8](apdu)
        guard b.count >= 4 else { return nil }
        var body: Data? = nil
        var le = -1
        let rest = b.count - 4
        if rest == 0 {
            // Case 1.
        } else if rest == 1 {
            // Case 2S: Le, 00 = 256.
            le = b[4] == 0 ? 256 : Int(b[4])
        } else if b[4] != 0 {
            // Case 3S / 4S: Lc in one byte.
            let lc = Int(b[4])
            if rest == 1 + lc {
                body = Data(b[5..<(5 + lc)])
            } else if rest == 2 + lc {
                body = Data(b[5..<(5 + lc)])
                le = b[5 + lc] == 0 ? 256 : Int(b[5 + lc])
            } else {
                return nil
            }
        } else if rest == 3 {
            // Case 2E: 00 Le(2), 00 00 = 65536.
            let value = Int(b[5]) << 8 | Int(b[6])
            le = value == 0 ? 65536 : value
        } else if rest > 3 {
            // Case 3E / 4E: 00 Lc(2) data [Le(2)].
            let lc = Int(b[5]) << 8 | Int(b[6])
            guard lc > 0 else { return nil }
            if rest == 3 + lc {
                body = Data(b[7..<(7 + lc)])
            } else if rest == 5 + lc {
                body = Data(b[7..<(7 + lc)])
                let value = Int(b[7 + lc]) << 8 | Int(b[8 + lc])
                le = value == 0 ? 65536 : value
            } else {
                return nil
            }
        } else {
            return nil
        }
        self.instructionClass = b[0]
        self.instructionCode = b[1]
        self.p1Parameter = b[2]
        self.p2Parameter = b[3]
        self.data = body
        self.expectedResponseLength = le
    }

    /// The APDU as sent to the card.
    /// - Throws: `NFCReaderError` `.readerErrorInvalidParameterLength` for more than 65535 data
    ///   bytes, `.readerErrorParameterOutOfBound` for Le outside -1, 1…65536.
    func encoded() throws -> [UInt8] {
        let body = [UInt8](data ?? Data())
        let le = expectedResponseLength
        guard body.count <= 65535 else {
            throw NFCReaderError(.readerErrorInvalidParameterLength, message: "APDU data of \(body.count) bytes exceeds 65535")
        }
        guard le == -1 || (1...65536).contains(le) else {
            throw NFCReaderError(.readerErrorParameterOutOfBound, message: "expectedResponseLength \(le) is not -1 or 1…65536")
        }
        var out: [UInt8] = [instructionClass, instructionCode, p1Parameter, p2Parameter]
        let extended = body.count > 255 || le > 256
        if extended {
            if !body.isEmpty {
                out += [0x00, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
            }
            if le != -1 {
                let value = le == 65536 ? 0 : le
                if body.isEmpty { out.append(0x00) }
                out += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
        } else {
            if !body.isEmpty {
                out.append(UInt8(body.count))
                out += body
            }
            if le != -1 {
                out.append(le == 256 ? 0x00 : UInt8(le))
            }
        }
        return out
    }

    /// The same APDU: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NFCISO7816APDU else { return false }
        return instructionClass == other.instructionClass && instructionCode == other.instructionCode
            && p1Parameter == other.p1Parameter && p2Parameter == other.p2Parameter
            && (data ?? Data()) == (other.data ?? Data()) && expectedResponseLength == other.expectedResponseLength
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine([instructionClass, instructionCode, p1Parameter, p2Parameter])
        hasher.combine(data ?? Data())
        hasher.combine(expectedResponseLength)
        return hasher.finalize()
    }
}
