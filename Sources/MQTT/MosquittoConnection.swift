import CMosquitto
import Glibc

/// One libmosquitto client (a TLS connection: `MQTTClient` picks it for `mqtts`), driven by its
/// owner's thread: every call, and every event handler call, happens on the thread that calls
/// `loop`/`service` (not thread-safe by design: the forwarder owns one client on one thread).
final class MosquittoConnection: MQTTConnection {
    private static let libraryReady: Bool = {
        mosquitto_lib_init()
        return true
    }()

    private var handle: OpaquePointer?
    /// Called on the loop's thread for every event.
    var onEvent: (MQTTClient.Event) -> Void = { _ in }

    /// - Throws: `MQTTError` when libmosquitto refuses an option (bad client id, unreadable CA file…).
    init(options: MQTTClientOptions) throws(MQTTError) {
        _ = Self.libraryReady
        handle = nil
        keepAlive = options.keepAliveSeconds
        let box = Unmanaged.passUnretained(self).toOpaque()
        guard let m = mosquitto_new(options.clientID, options.cleanSession, box) else {
            throw MQTTError(code: MOSQ_ERR_NOMEM.rawValue, operation: "mosquitto_new", errno: errno)
        }
        handle = m
        try check(mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311)), "mosquitto_int_option")
        if options.username != nil || options.password != nil {
            try check(mosquitto_username_pw_set(m, options.username, options.password), "mosquitto_username_pw_set")
        }
        if let tls = options.tls {
            try check(mosquitto_tls_set(m, tls.caFile, tls.caPath, nil, nil, nil), "mosquitto_tls_set")
            // SSL_VERIFY_PEER (1); host name checked unless tls_insecure_set(true), which nfctap never calls.
            try check(mosquitto_tls_opts_set(m, 1, nil, nil), "mosquitto_tls_opts_set")
            try check(mosquitto_tls_insecure_set(m, false), "mosquitto_tls_insecure_set")
        }
        if let will = options.will {
            try check(will.payload.withUnsafeBytes {
                mosquitto_will_set(m, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
            }, "mosquitto_will_set")
        }
        mosquitto_connect_callback_set(m) { _, obj, rc in MosquittoConnection.from(obj)?.onEvent(.connected(code: rc)) }
        mosquitto_disconnect_callback_set(m) { _, obj, rc in MosquittoConnection.from(obj)?.onEvent(.disconnected(code: rc)) }
        mosquitto_publish_callback_set(m) { _, obj, mid in MosquittoConnection.from(obj)?.onEvent(.published(mid: mid)) }
        mosquitto_subscribe_callback_set(m) { _, obj, mid, _, _ in MosquittoConnection.from(obj)?.onEvent(.subscribed(mid: mid)) }
        mosquitto_message_callback_set(m) { _, obj, message in
            guard let client = MosquittoConnection.from(obj), let message else { return }
            let topic = String(cString: message.pointee.topic)
            let count = Int(message.pointee.payloadlen)
            let payload = count > 0 && message.pointee.payload != nil
                ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: count)) : []
            client.onEvent(.message(topic: topic, payload: payload))
        }
    }

    private let keepAlive: Int32

    deinit {
        if let handle { mosquitto_destroy(handle) }
    }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        guard let obj else { return nil }
        return Unmanaged<MosquittoConnection>.fromOpaque(obj).takeUnretainedValue()
    }

    private func check(_ rc: Int32, _ operation: String) throws(MQTTError) {
        if rc != MOSQ_ERR_SUCCESS.rawValue { throw MQTTError(code: rc, operation: operation, errno: errno) }
    }

    /// Starts connecting without blocking (TCP and TLS proceed in `loop`); `.connected` follows.
    func connect(host: String, port: Int) throws(MQTTError) {
        try check(mosquitto_connect_async(handle, host, Int32(port), keepAlive), "mosquitto_connect_async")
    }

    /// Queues a message; `.published(mid)` follows for QoS 1 when the broker acknowledged it.
    /// - Returns: the message id.
    func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes {
            mosquitto_publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain)
        }
        try check(rc, "mosquitto_publish")
        return mid
    }

    /// Subscribes; `.subscribed(mid)` follows.
    func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try check(mosquitto_subscribe(handle, &mid, pattern, qos), "mosquitto_subscribe")
        return mid
    }

    /// Sends DISCONNECT (the broker then does not publish the Last Will).
    func disconnect() {
        _ = mosquitto_disconnect(handle)
    }

    /// Runs the network loop once: waits up to `timeoutMilliseconds` for the socket, reads,
    /// writes, keeps alive. Events are delivered from inside this call.
    /// - Throws: `MQTTError` when the connection is lost or cannot be made.
    func loop(timeoutMilliseconds: Int32) throws(MQTTError) {
        try check(mosquitto_loop(handle, timeoutMilliseconds, 1), "mosquitto_loop")
    }

    /// The client's socket (-1 when not connected), for callers that poll it with other descriptors.
    var socket: Int32 { mosquitto_socket(handle) }

    /// There are bytes waiting to be written (poll for POLLOUT).
    var wantsWrite: Bool { mosquitto_want_write(handle) }

    /// After polling `socket` yourself: reads, writes what is queued, keeps alive.
    /// - Throws: `MQTTError` when the connection is lost.
    func service(readable: Bool, writable: Bool) throws(MQTTError) {
        if readable { try check(mosquitto_loop_read(handle, 1), "mosquitto_loop_read") }
        if writable { try check(mosquitto_loop_write(handle, 1), "mosquitto_loop_write") }
        try check(mosquitto_loop_misc(handle), "mosquitto_loop_misc")
    }
}
