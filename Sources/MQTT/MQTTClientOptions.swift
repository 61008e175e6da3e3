/// How an `MQTTClient` connects: identity, credentials, TLS, Last Will.
public struct MQTTClientOptions: Sendable {
    /// TLS settings: the broker's certificate is always verified (chain and host name).
    public struct TLS: Sendable, Equatable {
        /// PEM file of the CA(s) that signed the broker's certificate; nil: the system's CAs.
        public var caFile: String?
        /// Directory of hashed CA certificates used when `caFile` is nil.
        public var caPath: String?

        public init(caFile: String? = nil, caPath: String? = "/etc/ssl/certs") {
            self.caFile = caFile
            self.caPath = caFile == nil ? caPath : nil
        }
    }

    /// The message the broker publishes for us when the connection is lost without DISCONNECT.
    public struct Will: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: Int32
        public var retain: Bool

        public init(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool = true) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }

    public var clientID: String
    /// true: the broker keeps no session for us between connections.
    public var cleanSession: Bool
    public var username: String?
    public var password: String?
    public var tls: TLS?
    public var will: Will?
    /// Seconds between PINGREQs when idle; the broker drops us after 1.5×.
    public var keepAliveSeconds: Int32

    public init(clientID: String, cleanSession: Bool = true, username: String? = nil, password: String? = nil,
                tls: TLS? = nil, will: Will? = nil, keepAliveSeconds: Int32 = 10) {
        self.clientID = clientID
        self.cleanSession = cleanSession
        self.username = username
        self.password = password
        self.tls = tls
        self.will = will
        self.keepAliveSeconds = keepAliveSeconds
    }
}
