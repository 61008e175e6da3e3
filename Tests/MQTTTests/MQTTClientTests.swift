import CMosquitto
import Dispatch
import Foundation
import Glibc
import Testing
@testable import MQTT

/// libmosquitto under `MQTTClient` against a scripted broker on 127.0.0.1: the events our code
/// gets, and how a connection ends when the broker misbehaves (a real mosquitto is in the system ring).
@Suite struct MQTTClientTests {
    @Test("connect, publish at QoS 1, PUBACK, disconnect: the packets and the events")
    func publishesAndDisconnects() throws {
        let (broker, client, log) = try connected("t1")
        let mid = try client.publish(topic: "a/b", payload: [7], qos: 1)
        #expect(mid == 1)
        try client.loop(timeoutMilliseconds: 100)
        #expect(try broker.readPacket() == [0x32, 8, 0, 3, 0x61, 0x2F, 0x62, 0, 1, 7])
        broker.send([0x40, 2, 0, 1])
        try loop(client, until: { log.all.contains(.published(mid: 1)) })
        client.disconnect()
        _ = try? client.loop(timeoutMilliseconds: 50)
        #expect(try broker.readPacket() == [0xE0, 0])
        #expect(log.all.last == .disconnected(code: 0), "\(log.all)")
    }

    @Test("the CONNECT carries the client id, credentials, keep-alive and the Last Will")
    func connectPacket() throws {
        let broker = try ScriptedBroker()
        let client = try MQTTClient(options: MQTTClientOptions(
            clientID: "st-1", username: "u", password: "pw", will: .init(topic: "s/status", payload: Array("off".utf8)),
            keepAliveSeconds: 10))
        try client.connect(host: "127.0.0.1", port: broker.port)
        try broker.accept(pumping: client)
        let connect = try broker.readPacket(pumping: client)
        #expect(connect[0] == 0x10)
        let body = Array(ScriptedBroker.body(of: connect))
        #expect(Array(body.prefix(7)) == [0, 4] + Array("MQTT".utf8) + [4], "MQTT 3.1.1: \(body)")
        #expect(body[7] == 0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02, "user, password, will retain, will QoS 1, will, clean session: \(body)")
        #expect(Array(body[8...9]) == [0, 10], "keep-alive 10 s")
        let rest = String(decoding: body[10...], as: UTF8.self)
        for part in ["st-1", "s/status", "off", "u", "pw"] { #expect(rest.contains(part), "\(part) in \(rest)") }
    }

    @Test("a PUBACK for an id not in flight, or a second one for the same id, acknowledges nothing")
    func strayAcknowledgements() throws {
        // With the CONNACK, a PUBACK for id 1 before anything was published.
        let (broker, client, log) = try connected("t8", alsoSend: [0x40, 2, 0, 1])
        try client.loop(timeoutMilliseconds: 100)
        #expect(try client.publish(topic: "t", payload: [1], qos: 1) == 1)
        #expect(try client.publish(topic: "t", payload: [2], qos: 0) == 2)
        try client.loop(timeoutMilliseconds: 100)
        _ = try broker.readPacket()
        #expect(!log.all.contains(.published(mid: 1)), "the early PUBACK counted for the message sent later: \(log.all)")
        // Id 9 was never used, id 1 is acknowledged twice.
        broker.send([0x40, 2, 0, 9] + [0x40, 2, 0, 1] + [0x40, 2, 0, 1])
        try loop(client, until: { log.all.contains(.published(mid: 1)) })
        try client.loop(timeoutMilliseconds: 100)
        let acknowledged = log.all.filter { if case let .published(mid) = $0 { mid != 2 } else { false } }
        #expect(acknowledged == [.published(mid: 1)], "\(log.all)")
        #expect(client.socket >= 0)
    }

    @Test("a refused CONNACK: .connected with the code, then the connection ends")
    func refusedConnack() throws {
        let broker = try ScriptedBroker()
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t2", username: "u", password: "bad"))
        let log = EventLog()
        client.onEvent = { log.all.append($0) }
        try client.connect(host: "127.0.0.1", port: broker.port)
        try broker.accept(pumping: client)
        _ = try broker.readPacket(pumping: client)
        broker.send([0x20, 2, 0, 5])
        _ = try? loopUntilError(client)
        #expect(log.all.first == .connected(code: 5), "\(log.all)")
        #expect("\(MQTTError.refused(connack: 5))".contains("not authorised"), "\(MQTTError.refused(connack: 5))")
    }

    @Test("a broker that hangs up mid-packet ends the connection with a typed error")
    func brokerHangsUp() throws {
        let (broker, client, log) = try connected("t3")
        broker.send([0x40, 2])
        broker.hangUp()
        let error = try #require(throws: MQTTError.self) { try loopUntilError(client) }
        #expect(error.kind == .connection, "\(error)")
        #expect(log.all.last.map { if case .disconnected(let code) = $0 { code != 0 } else { false } } == true, "\(log.all)")
        #expect(client.socket == -1)
    }

    @Test("idle: PINGREQ after the keep-alive; no PINGRESP ends the connection (MOSQ_ERR_KEEPALIVE)")
    func keepAlive() throws {
        // 5 s: libmosquitto's shortest keep-alive.
        let (broker, client, _) = try connected("t4", keepAlive: 5)
        let started = ContinuousClock.now
        let error = try #require(throws: MQTTError.self) { try loopUntilError(client, seconds: 15) }
        #expect(error.code == MOSQ_ERR_KEEPALIVE.rawValue, "\(error)")
        #expect(try broker.readPacket() == [0xC0, 0], "a PINGREQ was sent")
        let waited = ContinuousClock.now - started
        #expect(waited >= .seconds(8) && waited < .seconds(13), "\(waited)")
    }

    @Test("a PINGRESP keeps the connection; the broker's QoS 1 message is acknowledged")
    func pingrespAndIncoming() throws {
        let (broker, client, log) = try connected("t5", keepAlive: 5)
        #expect(try client.subscribe("in/#", qos: 1) == 1)
        try client.loop(timeoutMilliseconds: 50)
        #expect(try broker.readPacket() == [0x82, 9, 0, 1, 0, 4] + Array("in/#".utf8) + [1])
        broker.send([0x90, 3, 0, 1, 1, 0x32, 6, 0, 2] + Array("in".utf8) + [0x01, 0x02])
        try loop(client, until: { log.all.contains(.message(topic: "in", payload: [])) && log.all.contains(.subscribed(mid: 1)) })
        try client.loop(timeoutMilliseconds: 50)
        #expect(try broker.readPacket() == [0x40, 2, 0x01, 0x02], "PUBACK for the broker's message id")
        for _ in 0..<2 {
            let packet = try broker.readPacket(pumping: client, seconds: 8)
            #expect(packet == [0xC0, 0])
            broker.send([0xD0, 0])
        }
        try client.loop(timeoutMilliseconds: 50)
        #expect(client.socket >= 0, "two periods later still connected")
    }

    @Test("nothing listening: a typed connection error, not a hang")
    func nothingListening() throws {
        let port = try ScriptedBroker().port  // closed again at once
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t6"))
        let error = try #require(throws: MQTTError.self) {
            try client.connect(host: "127.0.0.1", port: port)
            try loopUntilError(client)
        }
        #expect(error.kind == .connection, "\(error)")
    }

    @Test("a name that does not resolve: a typed error (MOSQ_ERR_EAI)")
    func unresolvableName() throws {
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t7"))
        let error = try #require(throws: MQTTError.self) { try client.connect(host: "no-such-host.invalid", port: 1883) }
        #expect(error.code == MOSQ_ERR_EAI.rawValue && error.kind == .connection, "\(error)")
    }

    // MARK: Helpers

    /// The events a client reported, in order.
    final class EventLog {
        var all: [MQTTClient.Event] = []
    }

    /// A client connected to a fresh scripted broker: CONNECT read, CONNACK 0 (and `alsoSend`)
    /// sent, `.connected(code: 0)` seen.
    private func connected(_ clientID: String, keepAlive: Int32 = 30, alsoSend: [UInt8] = []) throws -> (ScriptedBroker, MQTTClient, EventLog) {
        let broker = try ScriptedBroker()
        let client = try MQTTClient(options: MQTTClientOptions(clientID: clientID, keepAliveSeconds: keepAlive))
        let log = EventLog()
        client.onEvent = { log.all.append($0) }
        try client.connect(host: "127.0.0.1", port: broker.port)
        try broker.accept(pumping: client)
        _ = try broker.readPacket(pumping: client)  // CONNECT
        broker.send([0x20, 2, 0, 0] + alsoSend)
        try loop(client, until: { log.all.contains(.connected(code: 0)) })
        return (broker, client, log)
    }

    private func loop(_ client: MQTTClient, until done: () -> Bool) throws {
        let until = ContinuousClock.now + .seconds(5)
        while !done() {
            guard ContinuousClock.now < until else { Issue.record("timed out"); return }
            try client.loop(timeoutMilliseconds: 50)
        }
    }

    private func loopUntilError(_ client: MQTTClient, seconds: Int = 5) throws {
        let until = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < until { try client.loop(timeoutMilliseconds: 50) }
    }
}

/// A listening socket on 127.0.0.1 that accepts one client and sends what a test says.
// @unchecked: `connection` is set by `accept` before any other thread sends on it.
final class ScriptedBroker: @unchecked Sendable {
    private let listener: Int32
    private var connection: Int32 = -1
    let port: Int

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw MQTTError(code: MOSQ_ERR_ERRNO.rawValue, operation: "test broker", errno: errno)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        if connection >= 0 { close(connection) }
        close(listener)
    }

    /// Accepts the client, running its loop meanwhile (libmosquitto connects without blocking).
    func accept(pumping client: MQTTClient) throws {
        let until = ContinuousClock.now + .seconds(5)
        var fd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        while poll(&fd, 1, 10) != 1 {
            guard ContinuousClock.now < until else { throw MQTTError(code: MOSQ_ERR_TIMEOUT.rawValue, operation: "test broker accept") }
            try client.loop(timeoutMilliseconds: 10)
        }
        connection = Glibc.accept(listener, nil, nil)
    }

    /// The bytes after a packet's fixed header.
    static func body(of packet: [UInt8]) -> ArraySlice<UInt8> {
        var index = 1
        while packet[index] & 0x80 != 0 { index += 1 }
        return packet[(index + 1)...]
    }

    /// One whole packet from the client, running its loop meanwhile when given one.
    func readPacket(pumping client: MQTTClient? = nil, seconds: Int32 = 5) throws -> [UInt8] {
        var packet = try read(count: 2, pumping: client, seconds: seconds)
        var length = Int(packet[1] & 0x7F), shift = 7
        while packet.last! & 0x80 != 0 {
            packet += try read(count: 1, pumping: client, seconds: seconds)
            length += Int(packet.last! & 0x7F) << shift
            shift += 7
        }
        return packet + (length > 0 ? try read(count: length, pumping: client, seconds: seconds) : [])
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Closes the connection after what was sent.
    func hangUp() {
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Exactly `count` bytes, within `seconds`.
    func read(count: Int, pumping client: MQTTClient? = nil, seconds: Int32 = 5) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        let until = ContinuousClock.now + .seconds(Int(seconds))
        while out.count < count {
            var fd = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            while poll(&fd, 1, 10) != 1 {
                guard ContinuousClock.now < until else { throw MQTTError(code: MOSQ_ERR_TIMEOUT.rawValue, operation: "test broker read") }
                try client?.loop(timeoutMilliseconds: 10)
            }
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, count - out.count, 0) }
            guard n > 0 else { throw MQTTError(code: MOSQ_ERR_CONN_LOST.rawValue, operation: "test broker read") }
            out += buffer[0..<n]
        }
        return out
    }
}
