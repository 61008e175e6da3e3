import NDEF

/// An ISO/IEC 7816-4 response APDU: response data followed by the status word SW1 SW2.
public struct ResponseAPDU: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let data: [UInt8]
    public let sw1: UInt8
    public let sw2: UInt8

    public init(data: [UInt8] = [], sw1: UInt8, sw2: UInt8) {
        self.data = data
        self.sw1 = sw1
        self.sw2 = sw2
    }

    /// Splits a reply into data and status word.
    /// - Throws: `TagError.malformedReply` when fewer than 2 bytes arrived.
    public init(bytes: [UInt8]) throws(TagError) {
        guard bytes.count >= 2 else {
            throw TagError.malformedReply("\(bytes.count)-byte reply has no status word")
        }
        self.init(data: Array(bytes.dropLast(2)), sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    /// SW1 SW2 as one number, e.g. 0x9000.
    public var statusWord: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }

    /// True for `90 00`.
    public var isSuccess: Bool { sw1 == 0x90 && sw2 == 0x00 }

    /// Data followed by SW1 SW2, as received.
    public var bytes: [UInt8] { data + [sw1, sw2] }

    /// The data when the status is `90 00`.
    /// - Throws: `TagError.status(sw1:sw2:)` for any other status word.
    public func successData() throws(TagError) -> [UInt8] {
        guard isSuccess else { throw TagError.status(sw1: sw1, sw2: sw2) }
        return data
    }

    public var description: String {
        data.isEmpty ? statusWordText(sw1, sw2) : "\(data.hexString(separator: " ")) \(statusWordText(sw1, sw2))"
    }
}
