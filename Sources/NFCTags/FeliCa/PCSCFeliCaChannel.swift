/// FeliCa frames through a PC/SC reader's pseudo-APDUs (docs/tags-and-readers.md §9.1), over the
/// reader's `Transceiver`:
///
/// - `.transparentExchange` (PC/SC Part 3, as the Sony RC-S300 offers it): once, start a
///   transparent session `FF C2 00 00 02 81 00 00` and switch the protocol to FeliCa
///   `FF C2 00 02 04 8F 02 03 00 00`; then each frame in a transceive `FF C2 00 01 Lc 95 len frame 00`,
///   the card's answer in DO `97`.
/// - `.directTransmit` (ACR122U): `FF 00 00 00 Lc D4 42 frame` (PN532 InCommunicateThru) →
///   `D5 43 00 answer 90 00`.
public final class PCSCFeliCaChannel: Transceiver {
    public enum Path: Sendable, Equatable {
        case transparentExchange
        case directTransmit
    }

    public let path: Path
    private let reader: any Transceiver
    private var sessionStarted = false

    /// `FF C2 00 00 02 81 00 00`: start a transparent session (Le 00).
    public static let startSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00, 0x00]
    /// `FF C2 00 02 04 8F 02 03 00 00`: switch protocol, DO 8F, standard 03 = FeliCa, layer 00.
    public static let switchToFeliCa: [UInt8] = [0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x03, 0x00, 0x00]

    public init(reader: any Transceiver, path: Path) {
        self.reader = reader
        self.path = path
    }

    /// The channel for a reader: ACR122U direct transmit, else the transparent exchange, which
    /// is the only way a PC/SC reader passes FeliCa frames; a reader without it refuses the first
    /// command and every exchange then throws `TagError.unsupported` saying so.
    public static func make(reader: any Transceiver, profile: PCSCReaderProfile) -> PCSCFeliCaChannel {
        PCSCFeliCaChannel(reader: reader, path: profile.supportsDirectTransmit ? .directTransmit : .transparentExchange)
    }

    public func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        switch path {
        case .transparentExchange: return try transparent(frame)
        case .directTransmit: return try direct(frame)
        }
    }

    private func transparent(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        if !sessionStarted {
            for command in [Self.startSession, Self.switchToFeliCa] {
                let response = try Self.dataObjects(reader.transceive(command))
                if let status = response.errorStatus, (status.sw1, status.sw2) != (0x90, 0x00) {
                    throw TagError.unsupported("FeliCa through this reader's transparent exchange (\(statusWordText(status.sw1, status.sw2)))")
                }
            }
            sessionStarted = true
        }
        let response = try Self.dataObjects(reader.transceive(PCSCTransparentExchange.transceive(frame)))
        if let status = response.errorStatus, (status.sw1, status.sw2) != (0x90, 0x00) {
            // 64 01: no answer from the card (PC/SC Part 3 error status).
            if (status.sw1, status.sw2) == (0x64, 0x01) { throw TagError.tagLost }
            throw TagError.status(sw1: status.sw1, sw2: status.sw2)
        }
        guard let answer = response.iccResponse, !answer.isEmpty else { throw TagError.tagLost }
        return answer
    }

    /// The data objects of a reply ending in `90 00`.
    static func dataObjects(_ reply: [UInt8]) throws(TagError) -> PCSCTransparentExchange.Response {
        guard reply.count >= 2 else { throw TagError.malformedReply("\(reply.count)-byte reply to a transparent exchange") }
        let sw1 = reply[reply.count - 2], sw2 = reply[reply.count - 1]
        guard (sw1, sw2) == (0x90, 0x00) else {
            if [0x6A, 0x6D, 0x6E, 0x68].contains(sw1) {
                throw TagError.unsupported("FeliCa through this reader (it refused the transparent exchange: \(statusWordText(sw1, sw2)))")
            }
            throw TagError.status(sw1: sw1, sw2: sw2)
        }
        return try PCSCTransparentExchange.parse(Array(reply.dropLast(2)))
    }

    private func direct(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        guard frame.count <= 252 else { throw TagError.unsupported("a FeliCa frame of \(frame.count) bytes through direct transmit") }
        let command: [UInt8] = [0xFF, 0x00, 0x00, 0x00, UInt8(frame.count + 2), 0xD4, 0x42] + frame
        let reply = try reader.transceive(command)
        guard reply.count >= 2, reply.suffix(2) == [0x90, 0x00] else {
            let sw = reply.count >= 2 ? (reply[reply.count - 2], reply[reply.count - 1]) : (0, 0)
            throw TagError.status(sw1: sw.0, sw2: sw.1)
        }
        guard reply.count >= 5, reply[0] == 0xD5, reply[1] == 0x43 else {
            throw TagError.malformedReply("direct transmit answer without D5 43")
        }
        // Status 01: the card did not answer (PN532 timeout).
        guard reply[2] & 0x3F == 0x00 else {
            if reply[2] & 0x3F == 0x01 { throw TagError.tagLost }
            throw TagError.transport(code: Int(reply[2]), message: "PN532 status \([reply[2]].hexString)")
        }
        return Array(reply[3..<(reply.count - 2)])
    }
}
