import CMosquitto
import Glibc

/// An MQTT 3.1.1 client, libmosquitto's, for `mqtt://` and `mqtts://` alike (OpenSSL verifies
/// the broker's chain and host name), driven by its owner's thread: every call, and every event
/// handler call, happens on the thread that calls `loop`/`service` (not thread-safe by design:
/// the forwarder owns one client on one thread). docs/architecture.md "Fleet: the MQTT client".
public final class MQTTClient {
    /// What the network loop reports.
    public enum Event: Equatable {
        /// CONNACK: 0 = accepted, else the broker's refusal code.
        case connected(code: Int32)
        /// The connection ended: 0 = we asked for it, else the `MOSQ_ERR_*` reason.
        case disconnected(code: Int32)
        /// The broker acknowledged message `mid` (PUBACK for QoS 1).
        case published(mid: Int32)
        /// A message on a subscribed topic.
        case message(topic: String, payload: [UInt8])
        /// SUBACK for subscription `mid`.
        case subscribed(mid: Int32)
    }

    private static let libraryReady: Bool = {
        mosquitto_lib_init()
        return true
    }()

    private var handle: OpaquePointer?
    private let keepAlive: Int32
    /// Called on the loop's thread for every event.
    public var onEvent: (Event) -> Void = { _ in }

    /// - Throws: `MQTTError` when libmosquitto refuses an option (bad client id, unreadable CA file…).
    public init(options: MQTTClientOptions) throws(MQTTError) {
        _ = Self.libraryReady
        keepAlive = options.keepAliveSeconds
        guard let m = mosquitto_new(options.clientID, options.cleanSession, nil) else {
            throw MQTTError(code: MOSQ_ERR_NOMEM.rawValue, operation: "mosquitto_new", errno: errno)
        }
        handle = m
        mosquitto_user_data_set(m, Unmanaged.passUnretained(self).toOpaque())
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
        mosquitto_connect_callback_set(m) { _, obj, rc in MQTTClient.from(obj)?.onEvent(.connected(code: rc)) }
        mosquitto_disconnect_callback_set(m) { _, obj, rc in MQTTClient.from(obj)?.onEvent(.disconnected(code: rc)) }
        mosquitto_publish_callback_set(m) { _, obj, mid in MQTTClient.from(obj)?.onEvent(.published(mid: mid)) }
        mosquitto_subscribe_callback_set(m) { _, obj, mid, _, _ in MQTTClient.from(obj)?.onEvent(.subscribed(mid: mid)) }
        mosquitto_message_callback_set(m) { _, obj, message in
            guard let client = MQTTClient.from(obj), let message else { return }
            let topic = String(cString: message.pointee.topic)
            let count = Int(message.pointee.payloadlen)
            let payload = count > 0 && message.pointee.payload != nil
                ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: count)) : []
            client.onEvent(.message(topic: topic, payload: payload))
        }
    }

    deinit {
        // Without DISCONNECT: the broker publishes the Last Will.
        if let handle { mosquitto_destroy(handle) }
    }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MQTTClient? {
        guard let obj else { return nil }
        return Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
    }

    private func check(_ rc: Int32, _ operation: String) throws(MQTTError) {
        if rc != MOSQ_ERR_SUCCESS.rawValue { throw MQTTError(code: rc, operation: operation, errno: errno) }
    }

    /// Wraps `mosquitto_connect_async`: resolves the host and starts the TCP connection (TLS and
    /// CONNECT go on in `loop`); `.connected` follows. Blocks in DNS: run it off the owner's loop
    /// (the forwarder's `ConnectJob`).
    public func connect(host: String, port: Int) throws(MQTTError) {
        guard (1...65_535).contains(port) else { throw MQTTError(code: MOSQ_ERR_INVAL.rawValue, operation: "connect", detail: "port \(port)") }
        try check(mosquitto_connect_async(handle, host, Int32(port), keepAlive), "mosquitto_connect_async")
    }

    /// Wraps `mosquitto_publish`: queues a message; `.published(mid)` follows for QoS 1 when the
    /// broker acknowledged it (an acknowledgement for an id not awaiting one is ignored).
    /// - Returns: the message id.
    public func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool = false) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes {
            mosquitto_publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain)
        }
        try check(rc, "mosquitto_publish")
        return mid
    }

    /// Wraps `mosquitto_subscribe`; `.subscribed(mid)` follows.
    @discardableResult
    public func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try check(mosquitto_subscribe(handle, &mid, pattern, qos), "mosquitto_subscribe")
        return mid
    }

    /// Wraps `mosquitto_disconnect`: sends DISCONNECT (the broker then does not publish the Last Will).
    public func disconnect() {
        _ = mosquitto_disconnect(handle)
    }

    /// Wraps `mosquitto_loop`: waits up to `timeoutMilliseconds` for the socket, reads, writes,
    /// keeps alive. Events are delivered from inside this call.
    /// - Throws: `MQTTError` when the connection is lost or cannot be made.
    public func loop(timeoutMilliseconds: Int32) throws(MQTTError) {
        try check(mosquitto_loop(handle, timeoutMilliseconds, 1), "mosquitto_loop")
    }

    /// The client's socket (-1 when not connected), for callers that poll it with other descriptors.
    public var socket: Int32 { mosquitto_socket(handle) }

    /// There are bytes waiting to be written (poll for POLLOUT).
    public var wantsWrite: Bool { mosquitto_want_write(handle) }

    /// After polling `socket` yourself: reads, writes what is queued, keeps alive
    /// (`mosquitto_loop_read`, `_write`, `_misc`).
    /// - Throws: `MQTTError` when the connection is lost.
    public func service(readable: Bool, writable: Bool) throws(MQTTError) {
        if readable { try check(mosquitto_loop_read(handle, 1), "mosquitto_loop_read") }
        if writable { try check(mosquitto_loop_write(handle, 1), "mosquitto_loop_write") }
        try check(mosquitto_loop_misc(handle), "mosquitto_loop_misc")
    }
}
