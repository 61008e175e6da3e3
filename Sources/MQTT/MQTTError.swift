import CMosquitto
import Glibc

/// An MQTT operation that failed, with libmosquitto's `MOSQ_ERR_*` code kept for logs and tests.
public struct MQTTError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What the code means, grouped the way callers react to it.
    public enum Kind: Equatable, Sendable {
        /// The broker is unreachable or the connection dropped (MOSQ_ERR_NO_CONN, CONN_LOST, ERRNO…): retry later.
        case connection
        /// The broker refused the connection (CONNACK code): bad credentials, client id refused…
        case refused
        /// TLS setup or handshake failed (certificate not trusted, wrong host name…).
        case tls
        /// Bad arguments: topic, payload size, options (a bug or bad configuration, retrying will not help).
        case invalid
        /// Anything else libmosquitto reports.
        case other
    }

    public var kind: Kind
    /// The libmosquitto `MOSQ_ERR_*` value, or the CONNACK code for `.refused`.
    public var code: Int32
    /// The call that failed, e.g. "mosquitto_publish".
    public var operation: String
    /// errno when `code` is MOSQ_ERR_ERRNO.
    public var systemErrno: Int32?
    /// What exactly went wrong, when more is known than the code says (the broker's bad packet…).
    public var detail: String?

    public init(kind: Kind, code: Int32, operation: String, systemErrno: Int32? = nil, detail: String? = nil) {
        self.kind = kind
        self.code = code
        self.operation = operation
        self.systemErrno = systemErrno
        self.detail = detail
    }

    /// Classifies a `MOSQ_ERR_*` return value.
    public init(code: Int32, operation: String, errno: Int32? = nil, detail: String? = nil) {
        let kind: Kind
        switch code {
        case MOSQ_ERR_NO_CONN.rawValue, MOSQ_ERR_CONN_LOST.rawValue, MOSQ_ERR_CONN_REFUSED.rawValue,
             MOSQ_ERR_ERRNO.rawValue, MOSQ_ERR_EAI.rawValue, MOSQ_ERR_KEEPALIVE.rawValue, MOSQ_ERR_PROTOCOL.rawValue:
            kind = .connection
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue:
            kind = .tls
        case MOSQ_ERR_INVAL.rawValue, MOSQ_ERR_PAYLOAD_SIZE.rawValue, MOSQ_ERR_MALFORMED_UTF8.rawValue,
             MOSQ_ERR_NOT_SUPPORTED.rawValue, MOSQ_ERR_OVERSIZE_PACKET.rawValue, MOSQ_ERR_QOS_NOT_SUPPORTED.rawValue:
            kind = .invalid
        case MOSQ_ERR_AUTH.rawValue, MOSQ_ERR_ACL_DENIED.rawValue:
            kind = .refused
        default:
            kind = .other
        }
        self.init(kind: kind, code: code, operation: operation,
                  systemErrno: code == MOSQ_ERR_ERRNO.rawValue ? errno : nil, detail: detail)
    }

    /// A CONNACK return code other than 0.
    public static func refused(connack code: Int32) -> MQTTError {
        MQTTError(kind: .refused, code: code, operation: "CONNACK")
    }

    /// The broker did not answer `operation` in time (a connection problem).
    public static func noAnswer(_ operation: String, detail: String) -> MQTTError {
        MQTTError(kind: .connection, code: MOSQ_ERR_KEEPALIVE.rawValue, operation: operation, detail: detail)
    }

    /// libmosquitto's texts: `mosquitto_connack_string`, `mosquitto_strerror`.
    public var description: String {
        if kind == .refused, operation == "CONNACK" {
            return "broker refused the connection: \(String(cString: mosquitto_connack_string(code))) (CONNACK \(code))"
        }
        var text = "\(operation): \(String(cString: mosquitto_strerror(code))) (MOSQ_ERR \(code))"
        if let systemErrno { text += ": \(String(cString: strerror(systemErrno)))" }
        if let detail { text += ": \(detail)" }
        return text
    }
}
