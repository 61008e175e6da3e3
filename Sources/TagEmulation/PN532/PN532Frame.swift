/// PN532 host-link framing (PN532 User Manual §6.2): what travels on the serial line.
///
/// Normal frame:   `00 00 FF LEN LCS TFI PD0…PDn DCS 00` (LEN = TFI + PD count, LCS = −LEN)
/// Extended frame: `00 00 FF FF FF LENm LENl LCS TFI PD0…PDn DCS 00` (LCS = −(LENm+LENl))
/// DCS = −(TFI + ΣPD). TFI is `D4` host→chip and `D5` chip→host.
/// ACK `00 00 FF 00 FF 00`, NACK `00 00 FF FF 00 00`, syntax-error frame `00 00 FF 01 FF 7F 81 00`.
public enum PN532Frame {
    public static let hostToChip: UInt8 = 0xD4
    public static let chipToHost: UInt8 = 0xD5
    public static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    public static let nack: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
    /// The application-level error frame the chip sends for a command it cannot run.
    public static let syntaxError: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]
    /// Largest TFI + data an extended frame may carry (LEN is 16 bits; libnfc accepts 265).
    public static let maxExtendedLength = 0xFFFF

    /// Wraps `payload` (command code and data) in an information frame with `tfi`:
    /// a normal frame up to 254 payload bytes, an extended frame above.
    /// - Precondition: `payload.count + 1 <= maxExtendedLength`.
    public static func encode(tfi: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 1
        precondition(length <= maxExtendedLength, "PN532 frame too long")
        var frame: [UInt8] = [0x00, 0x00, 0xFF]
        if length <= 0xFF {
            let len = UInt8(length)
            frame += [len, 0 &- len]
        } else {
            let hi = UInt8(length >> 8), lo = UInt8(length & 0xFF)
            frame += [0xFF, 0xFF, hi, lo, 0 &- (hi &+ lo)]
        }
        frame.append(tfi)
        frame += payload
        frame.append(0 &- payload.reduce(tfi, &+))
        frame.append(0x00)
        return frame
    }
}

/// One thing read from the serial line.
public enum PN532LinkEvent: Equatable, Sendable {
    /// An information frame whose checksums are right.
    case information(tfi: UInt8, payload: [UInt8])
    case ack
    case nack
    /// A frame with a wrong length or data checksum; the chip ignores it (the host times out).
    case corrupt(String)
}

/// Reassembles frames from a byte stream that arrives in arbitrary pieces. Bytes before a start
/// code `00 FF` (the `55 55 00 00 …` wake-up, line noise) are skipped.
public struct PN532FrameDecoder: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// Bytes received and not yet consumed.
    public var pendingCount: Int { buffer.count }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete event, or nil until more bytes arrive.
    public mutating func next() -> PN532LinkEvent? {
        while true {
            // Find the start code 00 FF (the preamble 00 before it is optional).
            guard let start = startCodeIndex() else {
                // Keep a trailing 00: it may be the first half of a start code.
                if buffer.last == 0x00 { buffer = [0x00] } else { buffer.removeAll() }
                return nil
            }
            if start > 0 { buffer.removeFirst(start) }
            // buffer: 00 FF LEN LCS …
            guard buffer.count >= 4 else { return nil }
            let len = buffer[2], lcs = buffer[3]
            switch (len, lcs) {
            case (0x00, 0xFF):
                consume(4, optionalPostamble: true)
                return .ack
            case (0xFF, 0x00):
                consume(4, optionalPostamble: true)
                return .nack
            case (0xFF, 0xFF):
                // Extended: 00 FF FF FF LENm LENl LCS TFI … DCS
                guard buffer.count >= 7 else { return nil }
                let hi = buffer[4], lo = buffer[5], xlcs = buffer[6]
                guard hi &+ lo &+ xlcs == 0 else {
                    buffer.removeFirst(2)
                    return .corrupt("extended length checksum mismatch")
                }
                let length = Int(hi) << 8 | Int(lo)
                if let event = body(headerSize: 7, length: length) { return event }
                return nil
            default:
                guard len &+ lcs == 0 else {
                    buffer.removeFirst(2)
                    return .corrupt("length checksum mismatch")
                }
                if let event = body(headerSize: 4, length: Int(len)) { return event }
                return nil
            }
        }
    }

    /// Decodes TFI + data + DCS after a header of `headerSize` bytes (from the start code).
    /// nil = incomplete.
    private mutating func body(headerSize: Int, length: Int) -> PN532LinkEvent? {
        guard length >= 1 else {
            buffer.removeFirst(2)
            return .corrupt("empty information frame")
        }
        guard buffer.count >= headerSize + length + 1 else { return nil }
        let frame = Array(buffer[headerSize..<(headerSize + length)])
        let dcs = buffer[headerSize + length]
        consume(headerSize + length + 1, optionalPostamble: true)
        guard frame.reduce(dcs, &+) == 0 else { return .corrupt("data checksum mismatch") }
        return .information(tfi: frame[0], payload: Array(frame.dropFirst()))
    }

    private func startCodeIndex() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for i in 0..<(buffer.count - 1) where buffer[i] == 0x00 && buffer[i + 1] == 0xFF {
            return i
        }
        return nil
    }

    /// Drops `count` bytes and the postamble `00` when it is already there. (A postamble
    /// that has not arrived yet is skipped later as junk before the next start code.)
    private mutating func consume(_ count: Int, optionalPostamble: Bool) {
        buffer.removeFirst(min(count, buffer.count))
        if optionalPostamble, buffer.count >= 2, buffer[0] == 0x00, buffer[1] != 0xFF {
            buffer.removeFirst()
        } else if optionalPostamble, buffer.count == 1, buffer[0] == 0x00 {
            // Ambiguous: postamble or the preamble of the next frame. Either way it is skippable.
            buffer.removeFirst()
        }
    }
}
