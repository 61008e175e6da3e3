/// An MQTT 3.1.1 client driven by its owner's thread: every call, and every event handler call,
/// happens on the thread that calls `loop`/`service` (not thread-safe by design: the forwarder
/// owns one client on one thread).
///
/// A plain connection is this module's own code (`MQTTSocketConnection`); a TLS connection is
/// libmosquitto's, opened on first use (`MosquittoConnection`). So a `mqtt://` station never
/// loads libmosquitto and OpenSSL (docs/architecture.md "Fleet: the MQTT client").
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

    private let connection: any MQTTConnection

    /// Called on the loop's thread for every event.
    public var onEvent: (Event) -> Void {
        get { connection.onEvent }
        set { connection.onEvent = newValue }
    }

    /// Whether this client's connection is libmosquitto's (TLS) rather than the module's own.
    public var usesLibmosquitto: Bool { connection is MosquittoConnection }

    /// - Throws: `MQTTError` when an option is refused (bad client id, unreadable CA file…).
    public init(options: MQTTClientOptions) throws(MQTTError) {
        if options.tls != nil {
            connection = try MosquittoConnection(options: options)
        } else {
            connection = MQTTSocketConnection(options: options)
        }
    }

    /// Starts connecting: resolves the host and opens the connection (TCP here; TLS goes on in
    /// `loop`); `.connected` follows. May block in DNS: run it off the owner's loop (`ConnectJob`).
    public func connect(host: String, port: Int) throws(MQTTError) {
        try connection.connect(host: host, port: port)
    }

    /// Queues a message; `.published(mid)` follows for QoS 1 when the broker acknowledged it.
    /// - Returns: the message id.
    public func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool = false) throws(MQTTError) -> Int32 {
        try connection.publish(topic: topic, payload: payload, qos: qos, retain: retain)
    }

    /// Subscribes; `.subscribed(mid)` follows.
    @discardableResult
    public func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32 {
        try connection.subscribe(pattern, qos: qos)
    }

    /// Sends DISCONNECT (the broker then does not publish the Last Will).
    public func disconnect() {
        connection.disconnect()
    }

    /// Runs the network loop once: waits up to `timeoutMilliseconds` for the socket, reads,
    /// writes, keeps alive. Events are delivered from inside this call.
    /// - Throws: `MQTTError` when the connection is lost or cannot be made.
    public func loop(timeoutMilliseconds: Int32) throws(MQTTError) {
        try connection.loop(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The client's socket (-1 when not connected), for callers that poll it with other descriptors.
    public var socket: Int32 { connection.socket }

    /// There are bytes waiting to be written (poll for POLLOUT).
    public var wantsWrite: Bool { connection.wantsWrite }

    /// After polling `socket` yourself: reads, writes what is queued, keeps alive.
    /// - Throws: `MQTTError` when the connection is lost.
    public func service(readable: Bool, writable: Bool) throws(MQTTError) {
        try connection.service(readable: readable, writable: writable)
    }
}

/// What `MQTTClient` needs of a connection; the two kinds behave alike towards it.
protocol MQTTConnection: AnyObject {
    var onEvent: (MQTTClient.Event) -> Void { get set }
    func connect(host: String, port: Int) throws(MQTTError)
    func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) throws(MQTTError) -> Int32
    func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32
    func disconnect()
    func loop(timeoutMilliseconds: Int32) throws(MQTTError)
    var socket: Int32 { get }
    var wantsWrite: Bool { get }
    func service(readable: Bool, writable: Bool) throws(MQTTError)
}
