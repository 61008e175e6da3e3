import NDEF

/// An ISO/IEC 7816-4 command APDU: header, optional data (Lc) and optional expected length (Le).
///
/// Encoding picks the short form when it can (Lc ≤ 255 and Le ≤ 256) and the extended form
/// otherwise; ISO 7816-4 §5.1 forbids mixing the two in one command, so when either field
/// needs the extended form both use it. Le 256 is sent as `00` (short), 65536 as `00 00`
/// (extended). Value type: build it, then send it with `Transceiver.send(_:)`.
public struct CommandAPDU: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Largest command data field (extended Lc).
    public static let maxDataLength = 65535
    /// Largest expected response length (extended Le `00 00`).
    public static let maxExpectedLength = 65536
    /// Largest data field and Le that fit the short form.
    public static let maxShortDataLength = 255
    public static let maxShortExpectedLength = 256

    public let cla: UInt8
    public let ins: UInt8
    public let p1: UInt8
    public let p2: UInt8
    /// Command data; empty when there is no Lc field.
    public let data: [UInt8]
    /// Expected response length Ne: nil = no Le field, else 1...65536.
    public let le: Int?

    /// - Throws: `APDUError.expectedLengthOutOfRange` when `le` is not nil or 1...65536,
    ///   `APDUError.dataTooLong` when `data` exceeds 65535 bytes.
    public init(cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int? = nil) throws(APDUError) {
        if let le, !(1...Self.maxExpectedLength).contains(le) {
            throw APDUError.expectedLengthOutOfRange(le)
        }
        guard data.count <= Self.maxDataLength else { throw APDUError.dataTooLong(data.count) }
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
    }

    /// True when the encoding uses extended length fields.
    public var isExtended: Bool {
        data.count > Self.maxShortDataLength || (le ?? 0) > Self.maxShortExpectedLength
    }

    /// The ISO 7816-4 case: 1 (header), 2 (Le), 3 (Lc data) or 4 (Lc data Le).
    public var isoCase: Int {
        switch (data.isEmpty, le == nil) {
        case (true, true): return 1
        case (true, false): return 2
        case (false, true): return 3
        case (false, false): return 4
        }
    }

    /// The bytes sent to the card.
    public var bytes: [UInt8] {
        var out: [UInt8] = [cla, ins, p1, p2]
        out.reserveCapacity(4 + 3 + data.count + 2)
        let extended = isExtended
        if !data.isEmpty {
            if extended {
                // Extended Lc: 00 then two bytes (1...65535).
                out += [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)]
            } else {
                out.append(UInt8(data.count))
            }
            out += data
        }
        if let le {
            if extended {
                // Extended Le: two bytes, 0000 = 65536; preceded by 00 only when there is no Lc.
                if data.isEmpty { out.append(0x00) }
                let v = le == Self.maxExpectedLength ? 0 : le
                out += [UInt8(v >> 8), UInt8(v & 0xFF)]
            } else {
                out.append(le == Self.maxShortExpectedLength ? 0x00 : UInt8(le))
            }
        }
        return out
    }

    /// Parses a command APDU in any of the seven encodings (cases 1, 2S, 3S, 4S, 2E, 3E, 4E).
    ///
    /// - Throws: `APDUError.malformed` when the length fields do not match the byte count
    ///   (including extended Lc 0000 and short Lc 00, which ISO 7816-4 does not allow).
    public init(bytes: [UInt8]) throws(APDUError) {
        let n = bytes.count
        guard n >= 4 else { throw APDUError.malformed("\(n) bytes, a header needs 4") }
        let header = (bytes[0], bytes[1], bytes[2], bytes[3])
        var data: [UInt8] = []
        var le: Int? = nil
        if n == 4 {
            // Case 1.
        } else if n == 5 {
            // Case 2S: Le 00 means 256.
            le = bytes[4] == 0 ? 256 : Int(bytes[4])
        } else if bytes[4] != 0 {
            // Short Lc.
            let lc = Int(bytes[4])
            if n == 5 + lc {
                data = Array(bytes[5..<n])
            } else if n == 6 + lc {
                data = Array(bytes[5..<(5 + lc)])
                le = bytes[n - 1] == 0 ? 256 : Int(bytes[n - 1])
            } else {
                throw APDUError.malformed("short Lc \(lc) does not match \(n) bytes")
            }
        } else {
            // 00 at offset 4 with more bytes: extended length fields.
            guard n >= 7 else { throw APDUError.malformed("\(n) bytes: truncated extended length") }
            let first = Int(bytes[5]) << 8 | Int(bytes[6])
            if n == 7 {
                // Case 2E.
                le = first == 0 ? 65536 : first
            } else {
                guard first != 0 else { throw APDUError.malformed("extended Lc is 0000") }
                if n == 7 + first {
                    data = Array(bytes[7..<n])
                } else if n == 9 + first {
                    data = Array(bytes[7..<(7 + first)])
                    let v = Int(bytes[n - 2]) << 8 | Int(bytes[n - 1])
                    le = v == 0 ? 65536 : v
                } else {
                    throw APDUError.malformed("extended Lc \(first) does not match \(n) bytes")
                }
            }
        }
        try self.init(cla: header.0, ins: header.1, p1: header.2, p2: header.3, data: data, le: le)
    }

    public var description: String { bytes.hexString(separator: " ") }
}
