import NFCTags

/// Maps raw Type 2 commands given to `sendMiFareCommand(commandPacket:)` onto `Type2Link`
/// (docs/tags-and-readers.md §1). Packets carry no CRC; the reader adds it.
enum Type2Command {
    /// The 4-bit ACK as iOS hands it to `sendMiFareCommand`: one byte (docs/tags-and-readers.md §1).
    static let ack: [UInt8] = [0x0A]

    /// Sends one command and returns the tag's reply as iOS shapes it: `0A` for an acknowledged
    /// WRITE; a NAK throws (`TagError.nak`, which the session reports as 102).
    /// - Throws: `NFCReaderError` for bad packets and commands the link cannot pass; `TagError`
    ///   from the link.
    static func send(_ packet: [UInt8], over link: any Type2Link) throws -> [UInt8] {
        guard let code = packet.first else {
            throw NFCReaderError(.readerErrorInvalidParameterLength, message: "empty MIFARE command")
        }
        switch code {
        case 0x30:  // READ pp → 16 bytes
            try requireLength(packet, 2, "READ")
            let reply = try link.read(page: Int(packet[1]))
            guard !reply.isEmpty else { throw TagError.malformedReply("READ returned no data") }
            return reply
        case 0x3A:  // FAST_READ s e → 4·(e−s+1) bytes
            try requireLength(packet, 3, "FAST_READ")
            let start = Int(packet[1]), end = Int(packet[2])
            guard start <= end else {
                throw NFCReaderError(.readerErrorInvalidParameter, message: "FAST_READ start page \(start) is after end page \(end)")
            }
            let expected = 4 * (end - start + 1)
            link.offerRawCommands()
            guard expected <= link.fastReadLimit else {
                throw NFCReaderError(.readerErrorUnsupportedFeature,
                                     message: "FAST_READ of \(expected) bytes exceeds what this reader passes (\(link.fastReadLimit))")
            }
            let reply = try refusedByReader("FAST_READ", link) { try link.fastRead(from: start, to: end) }
            guard reply.count == expected else {
                throw TagError.malformedReply("FAST_READ returned \(reply.count) bytes, expected \(expected)")
            }
            return reply
        case 0xA2:  // WRITE pp d0 d1 d2 d3 → ACK 0A
            try requireLength(packet, 6, "WRITE")
            try link.write(page: Int(packet[1]), data: Array(packet[2..<6]))
            return ack
        case 0x60:  // GET_VERSION → 8 bytes
            try requireLength(packet, 1, "GET_VERSION")
            link.offerRawCommands()
            guard link.canSendRawCommands else {
                throw NFCReaderError(.readerErrorUnsupportedFeature, message: "this reader cannot pass GET_VERSION")
            }
            return try refusedByReader("GET_VERSION", link) { try link.getVersion() }
        default:
            // Any other command (READ_SIG 3C, READ_CNT 39, …) goes raw where the reader passes raw
            // frames (ACR122U direct transmit, PC/SC Part 3 transparent exchange: PseudoAPDUType2Link).
            link.offerRawCommands()
            guard link.canSendRawCommands else {
                throw NFCReaderError(.readerErrorUnsupportedFeature,
                                     message: "command \([code].hexString)h is not supported through this reader")
            }
            do {
                return try link.transceiveRaw(packet)
            } catch TagError.unsupported {
                throw NFCReaderError(.readerErrorUnsupportedFeature,
                                     message: "command \([code].hexString)h is not supported through this reader")
            }
        }
    }

    /// Runs a raw command; when the reader refused its raw path meanwhile (an unknown reader
    /// without the transparent exchange), the refusal is `readerErrorUnsupportedFeature` naming
    /// the command and the reader's answer. A tag's own refusal stays the link's error.
    private static func refusedByReader<T>(_ name: String, _ link: any Type2Link, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let TagError.unsupported(why) where !link.canSendRawCommands {
            throw NFCReaderError(.readerErrorUnsupportedFeature, message: "this reader cannot pass \(name): \(why)")
        }
    }

    private static func requireLength(_ packet: [UInt8], _ count: Int, _ name: String) throws {
        guard packet.count == count else {
            throw NFCReaderError(.readerErrorInvalidParameterLength,
                                 message: "\(name) takes \(count) bytes, got \(packet.count)")
        }
    }
}
