import CMosquitto

/// The MQTT 3.1.1 control packets a client receives (OASIS MQTT 3.1.1, §2–§3), as
/// `MQTTPacketDecoder` reads them from a plain TCP connection (docs/architecture.md
/// "Fleet: the MQTT client").
enum MQTTPacket: Equatable {
    /// Packets a client may receive. QoS 2 flows, UNSUBACK and anything a broker only receives
    /// are protocol errors here: this client never asks for them.
    case connack(sessionPresent: Bool, code: UInt8)
    case publish(topic: String, payload: [UInt8], qos: UInt8, retain: Bool, packetID: UInt16)
    case puback(packetID: UInt16)
    case suback(packetID: UInt16, codes: [UInt8])
    case pingresp
}

/// Splits the bytes a broker sends into packets; every length is checked against what has arrived
/// and against `maxPacketBytes`, so a hostile or broken broker gets a protocol error, never a
/// trap or an unbounded buffer.
struct MQTTPacketDecoder {
    /// The largest packet accepted (fixed header included); this client only receives
    /// acknowledgements and, when it subscribes, messages.
    let maxPacketBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0

    init(maxPacketBytes: Int = 1 << 20) {
        self.maxPacketBytes = maxPacketBytes
    }

    /// Bytes received and not yet part of a whole packet.
    var pendingCount: Int { buffer.count - start }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next whole packet, or nil until more bytes arrive.
    /// - Throws: `MQTTError` (MOSQ_ERR_PROTOCOL) naming what was wrong.
    mutating func next() throws(MQTTError) -> MQTTPacket? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        // Remaining length: 1–4 bytes (§2.2.3).
        var length = 0
        var multiplier = 1
        var headerBytes = 1
        while true {
            guard headerBytes < available else { return nil }
            let byte = buffer[start + headerBytes]
            headerBytes += 1
            length += Int(byte & 0x7F) * multiplier
            if byte & 0x80 == 0 { break }
            guard headerBytes < 5 else { throw .protocolViolation("a remaining length longer than 4 bytes") }
            multiplier *= 128
        }
        guard headerBytes + length <= maxPacketBytes else {
            throw .protocolViolation("a packet of \(headerBytes + length) bytes, over this client's \(maxPacketBytes)-byte limit")
        }
        guard available >= headerBytes + length else { return nil }
        let first = buffer[start]
        let body = buffer[(start + headerBytes)..<(start + headerBytes + length)]
        start += headerBytes + length
        return try Self.parse(first: first, body: body)
    }

    private static func parse(first: UInt8, body: ArraySlice<UInt8>) throws(MQTTError) -> MQTTPacket {
        let type = first >> 4
        let flags = first & 0x0F
        // §2.2.2: every packet but PUBLISH has fixed flags (0 for those a client receives).
        if type != 3, flags != 0 { throw .protocolViolation("packet type \(type) with flags \(flags)") }
        let b = body.startIndex
        switch type {
        case 2:  // CONNACK §3.2
            guard body.count == 2, body[b] & 0xFE == 0 else { throw .protocolViolation("a CONNACK of \(body.count) bytes") }
            return .connack(sessionPresent: body[b] & 1 == 1, code: body[b + 1])
        case 3:  // PUBLISH §3.3
            let qos = (flags >> 1) & 3
            guard qos < 2 else { throw .protocolViolation("a PUBLISH with QoS \(qos) (this client subscribes at QoS 0 or 1)") }
            guard body.count >= 2 else { throw .protocolViolation("a PUBLISH too short for its topic length") }
            let topicLength = Int(body[b]) << 8 | Int(body[b + 1])
            let idLength = qos > 0 ? 2 : 0
            guard topicLength > 0, body.count >= 2 + topicLength + idLength else {
                throw .protocolViolation("a PUBLISH whose topic (\(topicLength) bytes) overruns its \(body.count)-byte body")
            }
            let topicBytes = body[(b + 2)..<(b + 2 + topicLength)]
            guard !topicBytes.contains(0), let topic = String(validating: topicBytes, as: UTF8.self) else {
                throw .protocolViolation("a PUBLISH whose topic is not valid UTF-8")
            }
            var packetID: UInt16 = 0
            if qos > 0 {
                let at = b + 2 + topicLength
                packetID = UInt16(body[at]) << 8 | UInt16(body[at + 1])
                guard packetID != 0 else { throw .protocolViolation("a QoS 1 PUBLISH with packet id 0") }
            }
            let payload = Array(body[(b + 2 + topicLength + idLength)...])
            return .publish(topic: topic, payload: payload, qos: qos, retain: flags & 1 == 1, packetID: packetID)
        case 4:  // PUBACK §3.4
            guard body.count == 2 else { throw .protocolViolation("a PUBACK of \(body.count) bytes") }
            return .puback(packetID: UInt16(body[b]) << 8 | UInt16(body[b + 1]))
        case 9:  // SUBACK §3.9
            guard body.count >= 3 else { throw .protocolViolation("a SUBACK of \(body.count) bytes") }
            let codes = Array(body[(b + 2)...])
            guard codes.allSatisfy({ $0 <= 2 || $0 == 0x80 }) else { throw .protocolViolation("a SUBACK with an undefined return code") }
            return .suback(packetID: UInt16(body[b]) << 8 | UInt16(body[b + 1]), codes: codes)
        case 13:  // PINGRESP §3.13
            guard body.isEmpty else { throw .protocolViolation("a PINGRESP of \(body.count) bytes") }
            return .pingresp
        default:
            throw .protocolViolation("packet type \(type), which a broker does not send to this client")
        }
    }
}
