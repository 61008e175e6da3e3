import CMosquitto
import Glibc

/// An MQTT 3.1.1 client on a plain TCP connection, in this module's own code: what a
/// `mqtt://` station uses instead of libmosquitto, which would load OpenSSL (1.6 MiB resident,
/// about 1 ms of start-up) into every process even without TLS (docs/architecture.md
/// "Fleet: the MQTT client"). It behaves as `MosquittoConnection` does towards its owner: the
/// same events, delivered from inside `loop`/`service`, and failures in `MOSQ_ERR_*` codes.
///
/// One thread at a time (the owner's): not thread-safe by design.
final class MQTTSocketConnection: MQTTConnection {
    var onEvent: (MQTTClient.Event) -> Void = { _ in }

    private let options: MQTTClientOptions
    private let connectTimeoutMilliseconds: Int32
    private var descriptor: Int32 = -1
    /// Bytes queued for the broker, from `outgoingStart` on.
    private var outgoing: [UInt8] = []
    private var outgoingStart = 0
    private var decoder = MQTTPacketDecoder()
    /// What `receive` reads into, made once: zeroing 16 KiB for every read cost a station of 100
    /// records 0.28 M instructions.
    private var chunk = [UInt8](repeating: 0, count: 16_384)
    private var awaitingConnack = false
    private var lastPacketSent = ContinuousClock.now
    private var pingSentAt: ContinuousClock.Instant?
    private var lastMessageID: UInt16 = 0
    /// Ids of the QoS 1 messages and subscriptions sent and not yet acknowledged. An
    /// acknowledgement for any other id is ignored, as libmosquitto does: a broker's stray or
    /// repeated PUBACK must never count as the acknowledgement of a later message that reuses the id.
    /// An array: a window holds a few dozen ids at most.
    private var awaitingAck: [UInt16] = []

    init(options: MQTTClientOptions, connectTimeoutMilliseconds: Int32 = 10_000) {
        self.options = options
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
    }

    deinit {
        // Without DISCONNECT, as libmosquitto's destroy: the broker publishes the Last Will.
        if descriptor >= 0 { close(descriptor) }
    }

    /// Resolves `host`, opens the TCP connection (each address in turn, each within the connect
    /// timeout) and queues CONNECT; `.connected` follows from `loop`. Blocks in DNS and TCP:
    /// callers run it on a helper thread (`ConnectJob`).
    func connect(host: String, port: Int) throws(MQTTError) {
        guard descriptor < 0 else { throw MQTTError(code: MOSQ_ERR_INVAL.rawValue, operation: "connect", detail: "already connected") }
        guard (1...65_535).contains(port) else { throw .invalidArgument("port \(port)") }
        let connectPacket = try MQTTOutgoingPacket.connect(options)
        descriptor = try Self.openTCP(host: host, port: port, timeoutMilliseconds: connectTimeoutMilliseconds)
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        outgoing = connectPacket
        outgoingStart = 0
        decoder = MQTTPacketDecoder()
        awaitingConnack = true
        pingSentAt = nil
        lastPacketSent = .now
        do {
            try flush()  // CONNECT leaves at once (what the socket does not take goes in `loop`)
        } catch {
            closeSocket()
            throw error
        }
    }

    func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) throws(MQTTError) -> Int32 {
        guard qos == 0 || qos == 1 else {
            throw MQTTError(code: MOSQ_ERR_QOS_NOT_SUPPORTED.rawValue, operation: "publish", detail: "QoS \(qos) (this client sends QoS 0 or 1)")
        }
        guard descriptor >= 0 else { throw MQTTError(code: MOSQ_ERR_NO_CONN.rawValue, operation: "publish") }
        let id = nextMessageID()
        queue(try MQTTOutgoingPacket.publish(topic: topic, payload: payload, qos: UInt8(qos), retain: retain, packetID: id))
        if qos == 1 { awaitingAck.append(id) }
        return Int32(id)
    }

    func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32 {
        guard qos == 0 || qos == 1 else {
            throw MQTTError(code: MOSQ_ERR_QOS_NOT_SUPPORTED.rawValue, operation: "subscribe", detail: "QoS \(qos) (0 or 1)")
        }
        guard descriptor >= 0 else { throw MQTTError(code: MOSQ_ERR_NO_CONN.rawValue, operation: "subscribe") }
        let id = nextMessageID()
        queue(try MQTTOutgoingPacket.subscribe(pattern: pattern, qos: UInt8(qos), packetID: id))
        awaitingAck.append(id)
        return Int32(id)
    }

    /// Sends DISCONNECT after what is queued (so the broker does not publish the Last Will) and
    /// closes; `.disconnected(code: 0)` follows at once.
    func disconnect() {
        guard descriptor >= 0 else { return }
        queue(MQTTOutgoingPacket.disconnect)
        // Up to half a second for the queue to leave, then a half-close and a short wait for
        // the broker's close, so that unread bytes do not turn the close into a reset that
        // could lose what was just written.
        let until = ContinuousClock.now + .milliseconds(500)
        while wantsWrite, ContinuousClock.now < until {
            var fd = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&fd, 1, 50) >= 0, (try? flush()) != nil else { break }
        }
        shutdown(descriptor, Int32(SHUT_WR))
        // Bounded too: a broker that keeps sending must not hold a stopping station.
        let drainUntil = ContinuousClock.now + .milliseconds(100)
        var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var scratch = [UInt8](repeating: 0, count: 512)
        while ContinuousClock.now < drainUntil, poll(&fd, 1, 20) > 0,
              scratch.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, 0) }) > 0 {}
        closeSocket()
        onEvent(.disconnected(code: 0))
    }

    func loop(timeoutMilliseconds: Int32) throws(MQTTError) {
        guard descriptor >= 0 else { throw MQTTError(code: MOSQ_ERR_NO_CONN.rawValue, operation: "loop") }
        var fd = pollfd(fd: descriptor, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
        let n = poll(&fd, 1, timeoutMilliseconds)
        guard n >= 0 || errno == EINTR else { throw MQTTError(code: MOSQ_ERR_ERRNO.rawValue, operation: "poll", errno: errno) }
        try service(readable: n > 0 && fd.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0,
                    writable: n > 0 && fd.revents & Int16(POLLOUT) != 0)
    }

    var socket: Int32 { descriptor }

    var wantsWrite: Bool { outgoingStart < outgoing.count }

    func service(readable: Bool, writable: Bool) throws(MQTTError) {
        guard descriptor >= 0 else { throw MQTTError(code: MOSQ_ERR_NO_CONN.rawValue, operation: "service") }
        do {
            if readable { try receive() }
            try checkKeepAlive()
            // What the event handlers queued, and what waited for the socket, goes out now.
            if wantsWrite { try flush() }
        } catch {
            fail(error)
            throw error
        }
    }

    // MARK: Reading

    private func receive() throws(MQTTError) {
        var packets: [MQTTPacket] = []
        for _ in 0..<8 {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 { throw MQTTError(code: MOSQ_ERR_CONN_LOST.rawValue, operation: "read", detail: "the broker closed the connection") }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { break }
                throw MQTTError(code: MOSQ_ERR_CONN_LOST.rawValue, operation: "read", detail: String(cString: strerror(errno)))
            }
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            while let packet = try decoder.next() { packets.append(packet) }
            if count < chunk.count { break }
        }
        // Handled after the reading: an event handler may publish (which only queues).
        for packet in packets { try handle(packet) }
    }

    private func handle(_ packet: MQTTPacket) throws(MQTTError) {
        switch packet {
        case let .connack(_, code):
            guard awaitingConnack else { throw .protocolViolation("a second CONNACK") }
            awaitingConnack = false
            onEvent(.connected(code: Int32(code)))
            if code != 0 { throw MQTTError(code: MOSQ_ERR_CONN_REFUSED.rawValue, operation: "CONNACK", detail: MQTTErrorText.connack(Int32(code))) }
        case _ where awaitingConnack:
            throw .protocolViolation("a packet before CONNACK")  // §3.2: CONNACK is the broker's first packet
        case let .puback(id):
            if acknowledge(id) { onEvent(.published(mid: Int32(id))) }
        case let .suback(id, _):
            if acknowledge(id) { onEvent(.subscribed(mid: Int32(id))) }
        case let .publish(topic, payload, qos, _, id):
            if qos == 1 { queue(MQTTOutgoingPacket.puback(packetID: id)) }
            onEvent(.message(topic: topic, payload: payload))
        case .pingresp:
            pingSentAt = nil
        }
    }

    // MARK: Writing

    private func queue(_ bytes: [UInt8]) {
        if outgoingStart == outgoing.count {
            outgoing.removeAll(keepingCapacity: true)
            outgoingStart = 0
        }
        outgoing += bytes
    }

    private func flush() throws(MQTTError) {
        while outgoingStart < outgoing.count {
            let sent = outgoing.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + outgoingStart, $0.count - outgoingStart, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                throw MQTTError(code: MOSQ_ERR_CONN_LOST.rawValue, operation: "write", detail: String(cString: strerror(errno)))
            }
            outgoingStart += sent
            lastPacketSent = .now
        }
        if outgoing.count > 65_536 { outgoing = [] } else { outgoing.removeAll(keepingCapacity: true) }
        outgoingStart = 0
    }

    /// §3.1.2.10: a packet at least every keep-alive period (PINGREQ when idle); no PINGRESP
    /// within another period ends the connection, as libmosquitto does.
    private func checkKeepAlive() throws(MQTTError) {
        guard options.keepAliveSeconds > 0 else { return }
        let period = Duration.seconds(Int(options.keepAliveSeconds))
        let now = ContinuousClock.now
        if let pingSentAt {
            if now - pingSentAt >= period { throw MQTTError(code: MOSQ_ERR_KEEPALIVE.rawValue, operation: "keep-alive") }
        } else if awaitingConnack {
            return  // the owner bounds the wait for CONNACK
        } else if now - lastPacketSent >= period {
            queue(MQTTOutgoingPacket.pingreq)
            pingSentAt = now
        }
    }

    /// Whether `id` was awaiting its acknowledgement (it no longer is).
    private func acknowledge(_ id: UInt16) -> Bool {
        guard let index = awaitingAck.firstIndex(of: id) else { return false }
        awaitingAck.remove(at: index)
        return true
    }

    private func nextMessageID() -> UInt16 {
        lastMessageID &+= 1
        if lastMessageID == 0 { lastMessageID = 1 }
        return lastMessageID
    }

    /// Closes after a failure; `.disconnected` with its code, as libmosquitto reports a lost connection.
    private func fail(_ error: MQTTError) {
        guard descriptor >= 0 else { return }
        closeSocket()
        onEvent(.disconnected(code: error.code))
    }

    private func closeSocket() {
        close(descriptor)
        descriptor = -1
        outgoing = []
        outgoingStart = 0
        awaitingConnack = false
        awaitingAck.removeAll()
    }

    // MARK: TCP

    /// Every address of `host` in the order the resolver gives, each with a non-blocking connect
    /// bounded by `timeoutMilliseconds`; the first that answers.
    private static func openTCP(host: String, port: Int, timeoutMilliseconds: Int32) throws(MQTTError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else {
            let reason = rc == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(rc))
            throw MQTTError(code: MOSQ_ERR_EAI.rawValue, operation: "connect", detail: "\(host): \(reason)")
        }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastErrno = errno; continue }
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            if errno == EINPROGRESS {
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var ready: Int32
                repeat { ready = poll(&pfd, 1, timeoutMilliseconds) } while ready < 0 && errno == EINTR
                var soError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if ready > 0, getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length) == 0, soError == 0 { return fd }
                lastErrno = ready == 0 ? ETIMEDOUT : soError != 0 ? soError : errno
            } else {
                lastErrno = errno
            }
            close(fd)
        }
        throw MQTTError(code: MOSQ_ERR_ERRNO.rawValue, operation: "connect", errno: lastErrno)
    }
}
