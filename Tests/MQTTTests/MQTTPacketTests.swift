import CMosquitto
import Testing
import TestSupport
@testable import MQTT

/// The MQTT 3.1.1 codec of plain connections (MQTTPacket): bytes as the OASIS standard gives
/// them, and every malformed packet a broker could send refused with a protocol error.
@Suite struct MQTTPacketTests {
    @Test("CONNECT carries flags, keep-alive and payload in the §3.1 order")
    func connectBytes() throws {
        let options = MQTTClientOptions(clientID: "st-1", cleanSession: true, username: "u", password: "pw",
                                        will: .init(topic: "s/x", payload: Array("off".utf8), qos: 1, retain: true),
                                        keepAliveSeconds: 300)
        let bytes = try MQTTOutgoingPacket.connect(options)
        let body: [UInt8] = [0, 4] + Array("MQTT".utf8) + [4,
            0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02,  // user, password, will retain, will QoS 1, will, clean
            0x01, 0x2C]                                  // 300 s
            + [0, 4] + Array("st-1".utf8) + [0, 3] + Array("s/x".utf8) + [0, 3] + Array("off".utf8)
            + [0, 1] + Array("u".utf8) + [0, 2] + Array("pw".utf8)
        #expect(bytes == [0x10, UInt8(body.count)] + body)
    }

    @Test("a password without a user name is not sent (§3.1.2.9)")
    func passwordNeedsUser() throws {
        let bytes = try MQTTOutgoingPacket.connect(MQTTClientOptions(clientID: "c", password: "secret", keepAliveSeconds: 10))
        #expect(bytes[9] == 0x02, "only clean session: no user name, no password flag")
        #expect(bytes.count == 2 + 10 + 3, "the payload is the client id alone: \(bytes)")
    }

    @Test("remaining length at each byte boundary (§2.2.3)", arguments: [
        (0, [0x00]), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]), (16_384, [0x80, 0x80, 0x01]),
        (2_097_151, [0xFF, 0xFF, 0x7F]), (2_097_152, [0x80, 0x80, 0x80, 0x01]), (268_435_455, [0xFF, 0xFF, 0xFF, 0x7F]),
    ] as [(Int, [UInt8])])
    func remainingLength(value: Int, encoded: [UInt8]) {
        var out: [UInt8] = []
        MQTTOutgoingPacket.appendRemainingLength(value, to: &out)
        #expect(out == encoded)
    }

    @Test("QoS 1 PUBLISH: topic, packet id, payload; QoS 0 has no id")
    func publishBytes() throws {
        let qos1 = try MQTTOutgoingPacket.publish(topic: "a/b", payload: [1, 2], qos: 1, retain: true, packetID: 0x1234)
        #expect(qos1 == [0x33, 9, 0, 3, 0x61, 0x2F, 0x62, 0x12, 0x34, 1, 2])
        let qos0 = try MQTTOutgoingPacket.publish(topic: "a", payload: [], qos: 0, retain: false, packetID: 7)
        #expect(qos0 == [0x30, 3, 0, 1, 0x61])
        let big = try MQTTOutgoingPacket.publish(topic: "t", payload: [UInt8](repeating: 0x41, count: 200), qos: 1, retain: false, packetID: 1)
        #expect(Array(big[0...2]) == [0x32, 0xCD, 0x01], "205 bytes of body in two length bytes")
    }

    @Test("topics MQTT cannot publish to are refused before anything is sent",
          arguments: ["", "a/+/b", "a/#", "nul\u{0}in", "65536 bytes"])
    func badTopics(name: String) {
        let topic = name == "65536 bytes" ? String(repeating: "x", count: 65_536) : name
        #expect(throws: MQTTError.self) { try MQTTOutgoingPacket.publish(topic: topic, payload: [], qos: 1, retain: false, packetID: 1) }
        do {
            _ = try MQTTOutgoingPacket.publish(topic: topic, payload: [], qos: 1, retain: false, packetID: 1)
        } catch {
            #expect(error.kind == .invalid && error.code == MOSQ_ERR_INVAL.rawValue)
        }
    }

    @Test("packets split at every byte are put together again")
    func decodesAcrossReads() throws {
        let publish: [UInt8] = [0x32, 0x81, 0x01, 0, 1, 0x74, 0, 9] + [UInt8](repeating: 0x42, count: 124)
        let stream: [UInt8] = [0x20, 2, 1, 0] + [0x40, 2, 0, 5] + publish + [0xD0, 0] + [0x90, 3, 0, 6, 0x80]
        var decoder = MQTTPacketDecoder()
        var packets: [MQTTPacket] = []
        for byte in stream {
            decoder.append([byte])
            while let packet = try decoder.next() { packets.append(packet) }
        }
        #expect(packets == [
            .connack(sessionPresent: true, code: 0),
            .puback(packetID: 5),
            .publish(topic: "t", payload: [UInt8](repeating: 0x42, count: 124), qos: 1, retain: false, packetID: 9),
            .pingresp,
            .suback(packetID: 6, codes: [0x80]),
        ])
        #expect(decoder.pendingCount == 0)
    }

    @Test("what a hostile or broken broker sends is a protocol error naming it", arguments: [
        ([0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], "longer than 4 bytes"),
        ([0x30, 0xFF, 0xFF, 0xFF, 0x7F], "over this client's"),    // 256 MiB announced: refused before it arrives
        ([0x20, 3, 0, 0, 0], "CONNACK of 3 bytes"),
        ([0x20, 2, 0x02, 0], "CONNACK of 2 bytes"),                // reserved flag bit set
        ([0x41, 2, 0, 1], "with flags 1"),
        ([0x40, 3, 0, 1, 0], "PUBACK of 3 bytes"),
        ([0x30, 1, 0], "too short"),
        ([0x30, 4, 0, 9, 0x61, 0x62], "overruns"),
        ([0x32, 5, 0, 1, 0x61, 0, 0], "packet id 0"),
        ([0x34, 5, 0, 1, 0x61, 0, 1], "QoS 2"),
        ([0x36, 5, 0, 1, 0x61, 0, 1], "QoS 3"),
        ([0x30, 4, 0, 2, 0xC3, 0x28], "not valid UTF-8"),
        ([0x30, 3, 0, 0, 0x61], "overruns"),                      // empty topic
        ([0x90, 3, 0, 1, 0x03], "undefined return code"),
        ([0x90, 2, 0, 1], "SUBACK of 2 bytes"),
        ([0xD0, 1, 0], "PINGRESP of 1 bytes"),
        ([0x50, 2, 0, 1], "packet type 5"),                       // PUBREC: no QoS 2 here
        ([0x10, 0], "packet type 1"),
        ([0x00, 0], "packet type 0"),
        ([0xF0, 0], "packet type 15"),
    ] as [([UInt8], String)])
    func hostileBytes(bytes: [UInt8], named: String) {
        var decoder = MQTTPacketDecoder()
        decoder.append(bytes)
        do {
            let packet = try decoder.next()
            Issue.record("accepted as \(String(describing: packet))")
        } catch {
            #expect(error.code == MOSQ_ERR_PROTOCOL.rawValue && error.kind == .connection)
            #expect("\(error)".contains(named), "\(error)")
        }
    }

    @Test("random bytes never trap the decoder and never make it hold more than its limit")
    func randomBytes() {
        var generator = SplitMix64(seed: 0x6D71_7474)
        for _ in 0..<20_000 {
            var decoder = MQTTPacketDecoder(maxPacketBytes: 4096)
            let count = Int(generator.next() % 64)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if !bytes.isEmpty { bytes[0] = [0x20, 0x30, 0x32, 0x40, 0x90, 0xD0][Int(generator.next() % 6)] }
            decoder.append(bytes)
            while true {
                do {
                    guard try decoder.next() != nil else { break }
                } catch {
                    break
                }
            }
            #expect(decoder.pendingCount <= 4096)
        }
    }
}
