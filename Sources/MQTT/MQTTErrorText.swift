import CMosquitto

/// What each `MOSQ_ERR_*` code and CONNACK return code means, in words. libmosquitto 2.0's own
/// texts where they are clear; `mosquitto_strerror` is not called, because describing an error of
/// a plain connection must not load the library (and with it OpenSSL) into the process.
enum MQTTErrorText {
    static func error(_ code: Int32) -> String {
        switch code {
        case MOSQ_ERR_CONN_PENDING.rawValue: "Connection pending."
        case MOSQ_ERR_SUCCESS.rawValue: "No error."
        case MOSQ_ERR_NOMEM.rawValue: "Out of memory."
        case MOSQ_ERR_PROTOCOL.rawValue: "A network protocol error occurred when communicating with the broker."
        case MOSQ_ERR_INVAL.rawValue: "Invalid function arguments provided."
        case MOSQ_ERR_NO_CONN.rawValue: "The client is not currently connected."
        case MOSQ_ERR_CONN_REFUSED.rawValue: "The connection was refused."
        case MOSQ_ERR_NOT_FOUND.rawValue: "Message not found (internal error)."
        case MOSQ_ERR_CONN_LOST.rawValue: "The connection was lost."
        case MOSQ_ERR_TLS.rawValue: "A TLS error occurred."
        case MOSQ_ERR_PAYLOAD_SIZE.rawValue: "Payload too large."
        case MOSQ_ERR_NOT_SUPPORTED.rawValue: "This feature is not supported."
        case MOSQ_ERR_AUTH.rawValue: "Authorisation failed."
        case MOSQ_ERR_ACL_DENIED.rawValue: "Access denied by ACL."
        case MOSQ_ERR_ERRNO.rawValue: "System error."
        case MOSQ_ERR_EAI.rawValue: "Lookup error."
        case MOSQ_ERR_PROXY.rawValue: "Proxy error."
        case MOSQ_ERR_MALFORMED_UTF8.rawValue: "Malformed UTF-8."
        case MOSQ_ERR_KEEPALIVE.rawValue: "The broker did not answer a keep-alive ping in time."
        case MOSQ_ERR_MALFORMED_PACKET.rawValue: "Malformed packet."
        case MOSQ_ERR_TLS_HANDSHAKE.rawValue: "TLS handshake failed."
        case MOSQ_ERR_QOS_NOT_SUPPORTED.rawValue: "Requested QoS not supported on server."
        case MOSQ_ERR_OVERSIZE_PACKET.rawValue: "Packet larger than supported by the server."
        case MOSQ_ERR_OCSP.rawValue: "OCSP error."
        case MOSQ_ERR_TIMEOUT.rawValue: "Timed out."
        default: "Unknown error."
        }
    }

    /// MQTT 3.1.1 §3.2.2.3.
    static func connack(_ code: Int32) -> String {
        switch code {
        case 0: "Connection Accepted."
        case 1: "Connection Refused: unacceptable protocol version."
        case 2: "Connection Refused: identifier rejected."
        case 3: "Connection Refused: broker unavailable."
        case 4: "Connection Refused: bad user name or password."
        case 5: "Connection Refused: not authorised."
        default: "Connection Refused: unknown reason."
        }
    }
}
