import CMosquitto
import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
@testable import MQTT

/// The plain-TCP client against a scripted broker on 127.0.0.1: what it sends, what it makes of
/// the replies, and how it ends when the broker misbehaves (a real mosquitto is in the system ring).
@Suite struct MQTTSocketConnectionTests {
    @Test("connect, publish at QoS 1, PUBACK, disconnect: the bytes and the events")
    func publishesAndDisconnects() throws {
        let broker = try ScriptedBroker()
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t1", keepAliveSeconds: 30))
        #expect(!client.usesLibmosquitto)
        var events: [MQTTClient.Event] = []
        client.onEvent = { events.append($0) }
        try client.connect(host: "127.0.0.1", port: broker.port)
        let connect = try broker.accept()
        #expect(try broker.read(count: 16) == (try MQTTOutgoingPacket.connect(MQTTClientOptions(clientID: "t1", keepAliveSeconds: 30))))
        _ = connect
        broker.send([0x20, 2, 0, 0])
        try loop(client, until: { events.contains(.connected(code: 0)) })
        let mid = try client.publish(topic: "a/b", payload: [7], qos: 1)
        #expect(mid == 1)
        try client.loop(timeoutMilliseconds: 100)
        #expect(try broker.read(count: 10) == [0x32, 8, 0, 3, 0x61, 0x2F, 0x62, 0, 1, 7])
        broker.send([0x40, 2, 0, 1])
        try loop(client, until: { events.contains(.published(mid: 1)) })
        client.disconnect()
        #expect(try broker.read(count: 2) == [0xE0, 0])
        #expect(events.last == .disconnected(code: 0))
        #expect(client.socket == -1)
    }

    @Test("a PUBACK for an id not in flight, or a second one for the same id, acknowledges nothing")
    func strayAcknowledgements() throws {
        // With the CONNACK, a PUBACK for id 1 before anything was published.
        let (broker, client, log) = try connected("t8", alsoSend: [0x40, 2, 0, 1])
        try client.loop(timeoutMilliseconds: 100)
        #expect(try client.publish(topic: "t", payload: [1], qos: 1) == 1)
        #expect(try client.publish(topic: "t", payload: [2], qos: 0) == 2)
        try client.loop(timeoutMilliseconds: 100)
        _ = try broker.read(count: 8 + 6)
        #expect(!log.all.contains(.published(mid: 1)), "the early PUBACK counted for the message sent later: \(log.all)")
        // Id 2 went at QoS 0 (no acknowledgement awaited), id 9 was never used, id 1 is acknowledged twice.
        broker.send([0x40, 2, 0, 2] + [0x40, 2, 0, 9] + [0x40, 2, 0, 1] + [0x40, 2, 0, 1])
        try loop(client, until: { log.all.contains(.published(mid: 1)) })
        try client.loop(timeoutMilliseconds: 100)
        #expect(log.all.filter { if case .published = $0 { true } else { false } } == [.published(mid: 1)], "\(log.all)")
        #expect(client.socket >= 0)
    }

    @Test("disconnect ends within its bounds while the broker never stops sending")
    func disconnectFromAFloodingBroker() throws {
        let (broker, client, log) = try connected("t9")
        let flood = Flood()
        let flooder = Thread {  // QoS 0 messages, as fast as the socket takes them, until the test ends
            let burst = Array(repeating: [UInt8]([0x30, 5, 0, 1, 0x74, 0x41, 0x42]), count: 500).flatMap { $0 }
            while flood.on.load(ordering: .relaxed) { broker.send(burst) }
            flood.ended.signal()
        }
        flooder.start()
        defer {  // the thread has stopped sending before the broker's socket is closed
            flood.on.store(false, ordering: .relaxed)
            flood.ended.wait()
        }
        usleep(100_000)
        let started = ContinuousClock.now
        client.disconnect()
        let took = ContinuousClock.now - started
        #expect(took < .seconds(1), "disconnect took \(took)")
        #expect(log.all.last == .disconnected(code: 0) && client.socket == -1)
    }

    @Test("a refused CONNACK: .connected with the code, then a typed error and the socket closed")
    func refusedConnack() throws {
        let broker = try ScriptedBroker()
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t2", username: "u", password: "bad"))
        var events: [MQTTClient.Event] = []
        client.onEvent = { events.append($0) }
        try client.connect(host: "127.0.0.1", port: broker.port)
        _ = try broker.accept()
        broker.send([0x20, 2, 0, 5])
        let error = try #require(throws: MQTTError.self) { try loopUntilError(client) }
        #expect(error.code == MOSQ_ERR_CONN_REFUSED.rawValue)
        #expect("\(error)".contains("not authorised"), "\(error)")
        #expect(events == [.connected(code: 5), .disconnected(code: MOSQ_ERR_CONN_REFUSED.rawValue)])
        #expect(client.socket == -1)
    }

    @Test("a broker that sends garbage or hangs up mid-packet ends the connection with a typed error", arguments: [
        ([0x20, 2, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], MOSQ_ERR_PROTOCOL.rawValue, "longer than 4 bytes"),
        ([0x40, 2, 0, 1], MOSQ_ERR_PROTOCOL.rawValue, "before CONNACK"),
        ([0x20, 2, 0, 0, 0x20, 2, 0, 0], MOSQ_ERR_PROTOCOL.rawValue, "second CONNACK"),
        ([0x20, 2, 0, 0, 0x40, 2], MOSQ_ERR_CONN_LOST.rawValue, "closed the connection"),
    ] as [([UInt8], Int32, String)])
    func brokerMisbehaves(bytes: [UInt8], code: Int32, text: String) throws {
        let broker = try ScriptedBroker()
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t3"))
        var events: [MQTTClient.Event] = []
        client.onEvent = { events.append($0) }
        try client.connect(host: "127.0.0.1", port: broker.port)
        _ = try broker.accept()
        broker.send(bytes)
        broker.hangUp()
        let error = try #require(throws: MQTTError.self) { try loopUntilError(client) }
        #expect(error.code == code && error.kind == .connection, "\(error)")
        #expect("\(error)".contains(text), "\(error)")
        #expect(events.last == .disconnected(code: code))
        #expect(client.socket == -1)
        #expect(throws: MQTTError.self) { try client.publish(topic: "t", payload: [], qos: 1) }
    }

    @Test("idle: PINGREQ after the keep-alive; no PINGRESP within another period ends the connection")
    func keepAlive() throws {
        let broker = try ScriptedBroker()
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t4", keepAliveSeconds: 1))
        try client.connect(host: "127.0.0.1", port: broker.port)
        _ = try broker.accept()
        _ = try broker.read(count: 16)  // CONNECT
        broker.send([0x20, 2, 0, 0])
        let started = ContinuousClock.now
        let error = try #require(throws: MQTTError.self) { try loopUntilError(client, seconds: 6) }
        #expect(error.code == MOSQ_ERR_KEEPALIVE.rawValue, "\(error)")
        #expect(try broker.read(count: 2) == [0xC0, 0], "a PINGREQ was sent")
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(1900) && waited < .seconds(4), "\(waited)")
    }

    @Test("a PINGRESP keeps the connection; the broker's QoS 1 message is acknowledged")
    func pingrespAndIncoming() throws {
        let (broker, client, log) = try connected("t5", keepAlive: 1)
        #expect(try client.subscribe("in/#", qos: 1) == 1)
        try client.loop(timeoutMilliseconds: 50)
        #expect(try broker.read(count: 11) == [0x82, 9, 0, 1, 0, 4] + Array("in/#".utf8) + [1])
        broker.send([0x90, 3, 0, 1, 1, 0x32, 6, 0, 2] + Array("in".utf8) + [0x01, 0x02])
        try loop(client, until: { log.all.contains(.message(topic: "in", payload: [])) && log.all.contains(.subscribed(mid: 1)) })
        #expect(try broker.read(count: 4) == [0x40, 2, 0x01, 0x02], "PUBACK for the broker's message id")
        for _ in 0..<3 {
            let until = ContinuousClock.now + .milliseconds(1100)
            while ContinuousClock.now < until { try client.loop(timeoutMilliseconds: 50) }
            #expect(try broker.read(count: 2, seconds: 1) == [0xC0, 0])
            broker.send([0xD0, 0])
        }
        try client.loop(timeoutMilliseconds: 50)
        #expect(client.socket >= 0, "three periods later still connected")
    }

    @Test("nothing listening: a typed connection error, not a hang")
    func nothingListening() throws {
        let port = try ScriptedBroker().port  // closed again at once
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t6"))
        let error = try #require(throws: MQTTError.self) { try client.connect(host: "127.0.0.1", port: port) }
        #expect(error.code == MOSQ_ERR_ERRNO.rawValue && error.systemErrno == ECONNREFUSED && error.kind == .connection)
        #expect(client.socket == -1)
    }

    @Test("a TLS client is libmosquitto's (OpenSSL verifies the broker)")
    func tlsUsesLibmosquitto() throws {
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "t7", tls: .init()))
        #expect(client.usesLibmosquitto)
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
        _ = try broker.accept()
        _ = try broker.read(count: 14 + clientID.utf8.count)  // CONNECT
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

/// The flooding thread's switch and its end.
final class Flood: Sendable {
    let on = Atomic(true)
    let ended = DispatchSemaphore(value: 0)
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

    @discardableResult
    func accept() throws -> Int32 {
        var fd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, 5000) == 1 else { throw MQTTError(code: MOSQ_ERR_TIMEOUT.rawValue, operation: "test broker accept") }
        connection = Glibc.accept(listener, nil, nil)
        return connection
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Closes the connection after what was sent.
    func hangUp() {
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Exactly `count` bytes, within `seconds`.
    func read(count: Int, seconds: Int32 = 5) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while out.count < count {
            var fd = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, seconds * 1000) == 1 else { throw MQTTError(code: MOSQ_ERR_TIMEOUT.rawValue, operation: "test broker read") }
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, count - out.count, 0) }
            guard n > 0 else { throw MQTTError(code: MOSQ_ERR_CONN_LOST.rawValue, operation: "test broker read") }
            out += buffer[0..<n]
        }
        return out
    }
}
