/// Why a `--publish` URL (or a kiosk `publish.url`) is refused. Messages never contain the password.
public enum PublishURLError: Error, Equatable, CustomStringConvertible, Sendable {
    case unknownScheme(String)
    case missingHost
    case badPort(String)
    case missingTopic
    case badTopic(String, reason: String)
    case badCharacters(String)
    /// The URL reads two ways (a raw "/" in a password, or an "@" in the topic).
    case ambiguous
    /// A raw '@' or ':' in the user name or password.
    case unencodedUserinfo
    /// Longer than `PublishURL.maxLength`.
    case tooLong(Int)

    public var description: String {
        switch self {
        case let .unknownScheme(scheme):
            return "unknown scheme \"\(scheme)\": use mqtt://HOST[:PORT]/TOPIC or mqtts://HOST[:PORT]/TOPIC (TLS)"
        case .missingHost:
            return "the URL has no broker host: use mqtt://HOST[:PORT]/TOPIC"
        case let .badPort(port):
            return "bad port \"\(port)\": a number from 1 to 65535"
        case .missingTopic:
            return "the URL has no topic: add one, e.g. mqtt://HOST/nfctap/<site>/<station>/taps"
        case let .badTopic(topic, reason):
            return "bad topic \"\(topic)\": \(reason)"
        case .ambiguous:
            return "the URL reads two ways (a raw '/' in the password, or an '@' in the topic): percent-encode them (%2F, %40), or put the password in NFCTAP_MQTT_PASSWORD"
        case .unencodedUserinfo:
            return "the URL's user name or password holds a raw '@', ':' or '/': percent-encode them (%40, %3A, %2F), or put the password in NFCTAP_MQTT_PASSWORD"
        case let .tooLong(length):
            return "the URL is \(length) bytes, over the \(PublishURL.maxLength)-byte limit"
        case let .badCharacters(part):
            return "the URL's \(part) has a bad percent-escape or control character"
        }
    }
}
