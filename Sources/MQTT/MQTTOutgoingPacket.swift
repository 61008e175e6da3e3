import CMosquitto

/// The MQTT 3.1.1 control packets a client sends, as bytes (§3.1 CONNECT, §3.3 PUBLISH, §3.4
/// PUBACK, §3.8 SUBSCRIBE, §3.12 PINGREQ, §3.14 DISCONNECT). Whatever MQTT cannot carry (a
/// wildcard topic, a string over 65535 bytes, NUL) is refused here, before anything is sent.
enum MQTTOutgoingPacket {
    /// §2.2.3: at most four bytes of remaining length.
    static let maxRemainingLength = 268_435_455


    static func connect(_ options: MQTTClientOptions) throws(MQTTError) -> [UInt8] {
        var flags: UInt8 = options.cleanSession ? 0x02 : 0
        var payload: [UInt8] = []
        try appendString(options.clientID, to: &payload, what: "client id")
        if let will = options.will {
            guard will.qos == 0 || will.qos == 1 else { throw .invalidArgument("will QoS \(will.qos) (0 or 1)") }
            try checkPublishTopic(will.topic)
            flags |= 0x04 | UInt8(will.qos) << 3 | (will.retain ? 0x20 : 0)
            try appendString(will.topic, to: &payload, what: "will topic")
            try appendBinary(will.payload, to: &payload, what: "will payload")
        }
        // §3.1.2.9: a password only with a user name.
        if let username = options.username {
            flags |= 0x80
            try appendString(username, to: &payload, what: "user name")
            if let password = options.password {
                flags |= 0x40
                try appendString(password, to: &payload, what: "password")
            }
        }
        guard (0...65_535).contains(options.keepAliveSeconds) else {
            throw .invalidArgument("keep-alive \(options.keepAliveSeconds) s (0–65535)")
        }
        let keepAlive = UInt16(options.keepAliveSeconds)
        // Protocol name "MQTT", level 4 (3.1.1), flags, keep-alive.
        let variable: [UInt8] = [0, 4, 0x4D, 0x51, 0x54, 0x54, 4, flags, UInt8(keepAlive >> 8), UInt8(keepAlive & 0xFF)]
        return try packet(type: 0x10, body: variable + payload)
    }

    static func publish(topic: String, payload: [UInt8], qos: UInt8, retain: Bool, packetID: UInt16) throws(MQTTError) -> [UInt8] {
        try checkPublishTopic(topic)
        var body: [UInt8] = []
        body.reserveCapacity(topic.utf8.count + payload.count + 4)
        try appendString(topic, to: &body, what: "topic")
        if qos > 0 { appendUInt16(packetID, to: &body) }
        guard body.count + payload.count <= maxRemainingLength else { throw MQTTError(code: MOSQ_ERR_PAYLOAD_SIZE.rawValue, operation: "publish") }
        body += payload
        return try packet(type: 0x30 | qos << 1 | (retain ? 1 : 0), body: body)
    }

    static func puback(packetID: UInt16) -> [UInt8] {
        [0x40, 2, UInt8(packetID >> 8), UInt8(packetID & 0xFF)]
    }

    static func subscribe(pattern: String, qos: UInt8, packetID: UInt16) throws(MQTTError) -> [UInt8] {
        guard !pattern.isEmpty, !pattern.utf8.contains(0) else { throw .invalidArgument("subscription pattern") }
        var body: [UInt8] = []
        appendUInt16(packetID, to: &body)
        try appendString(pattern, to: &body, what: "subscription pattern")
        body.append(qos)
        return try packet(type: 0x82, body: body)  // §3.8.1: flags 0010
    }

    static let pingreq: [UInt8] = [0xC0, 0]
    static let disconnect: [UInt8] = [0xE0, 0]

    /// §4.7.1: a topic to publish to is 1–65535 bytes of UTF-8 without wildcards or NUL.
    static func checkPublishTopic(_ topic: String) throws(MQTTError) {
        let bytes = topic.utf8
        guard !bytes.isEmpty, bytes.count <= 65_535, !bytes.contains(where: { $0 == 0x2B || $0 == 0x23 || $0 == 0 }) else {
            throw .invalidArgument("topic \"\(topic.prefix(80))\" (1–65535 bytes, no + # or NUL)")
        }
    }

    private static func packet(type: UInt8, body: [UInt8]) throws(MQTTError) -> [UInt8] {
        guard body.count <= maxRemainingLength else { throw MQTTError(code: MOSQ_ERR_PAYLOAD_SIZE.rawValue, operation: "encode") }
        var out: [UInt8] = [type]
        out.reserveCapacity(body.count + 5)
        appendRemainingLength(body.count, to: &out)
        out += body
        return out
    }

    /// §2.2.3: seven bits per byte, least significant first, the top bit saying "more follows".
    static func appendRemainingLength(_ length: Int, to out: inout [UInt8]) {
        var value = length
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value > 0 { byte |= 0x80 }
            out.append(byte)
        } while value > 0
    }

    private static func appendUInt16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value >> 8))
        out.append(UInt8(value & 0xFF))
    }

    private static func appendString(_ string: String, to out: inout [UInt8], what: String) throws(MQTTError) {
        // §1.5.3: UTF-8 (a Swift String always is) without NUL, at most 65535 bytes.
        guard !string.utf8.contains(0) else { throw .invalidArgument("\(what) contains NUL") }
        try appendBinary(Array(string.utf8), to: &out, what: what)
    }

    private static func appendBinary(_ bytes: [UInt8], to out: inout [UInt8], what: String) throws(MQTTError) {
        guard bytes.count <= 65_535 else { throw .invalidArgument("\(what) of \(bytes.count) bytes (at most 65535)") }
        appendUInt16(UInt16(bytes.count), to: &out)
        out += bytes
    }
}
