import Foundation

/// What a user configures to publish a record file: `--publish URL [--mqtt-ca FILE]`, or the
/// kiosk's `"publish": {"url", "caFile", "site", "station"}`.
public struct PublishSettings: Equatable, Sendable {
    public var url: PublishURL
    public var caFile: String?
    public var site: String?
    public var station: String?
    /// Announce the station to Home Assistant as a tag scanner (nil: no discovery message).
    public var homeAssistant: HomeAssistantDiscovery?

    /// Environment variable holding the broker password when the URL has a user and no password
    /// (keeps it out of `ps` and of configuration files).
    public static let passwordVariable = "NFCTAP_MQTT_PASSWORD"

    /// The one variable of the process environment `init` reads (`getenv`: building
    /// `ProcessInfo.processInfo.environment` cost 740,000 instructions of a station's start).
    public static func passwordEnvironment() -> [String: String] {
        getenv(passwordVariable).map { [passwordVariable: String(cString: $0)] } ?? [:]
    }

    /// - Throws: `PublishURLError` for a bad URL, site or station, or a CA file given for mqtt://.
    public init(url text: String, caFile: String? = nil, site: String? = nil, station: String? = nil,
                environment: [String: String] = PublishSettings.passwordEnvironment()) throws {
        var url = try PublishURL.parse(text, requireTopic: site == nil && station == nil)
        if url.username != nil, url.password == nil, let password = environment[Self.passwordVariable], !password.isEmpty {
            url.password = password
        }
        if let site { try Topic.validateLevel(site, what: "site") }
        if let station { try Topic.validateLevel(station, what: "station") }
        if url.topic.isEmpty, site == nil { throw PublishURLError.missingTopic }
        if caFile != nil, !url.secure {
            throw PublishURLError.badTopic(url.redacted, reason: "a CA file is for mqtts:// (TLS) URLs")
        }
        self.url = url
        self.caFile = caFile
        self.site = site
        self.station = station
        try Topic.validate(topic)
    }

    /// The records' topic: the URL's, else `nfctap/<site>/<station>/taps` (station: the host name).
    public var topic: String {
        if !url.topic.isEmpty { return url.topic }
        return Topic.taps(site: site ?? "default", station: station ?? Self.hostName)
    }

    static var hostName: String {
        let name = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "station"
        return (try? Topic.validateLevel(name, what: "station")) != nil ? name : "station"
    }

    /// The forwarder's configuration for `outbox`.
    public func configuration(outbox: String, stationID: String, softwareVersion: String = "unknown") -> ForwarderConfiguration {
        var configuration = ForwarderConfiguration(outboxPath: outbox, url: url, topic: topic, caFile: caFile, stationID: stationID)
        if let homeAssistant {
            configuration.homeAssistant = homeAssistant
            configuration.announcements.append(homeAssistant.message(for: configuration, softwareVersion: softwareVersion))
        }
        return configuration
    }

    /// A warning when `path` (a configuration file holding this password) can be read by every user.
    public func worldReadableWarning(configurationPath path: String) -> String? {
        guard url.password != nil else { return nil }
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IROTH != 0 else { return nil }
        return "\(path) holds the MQTT password and every user can read it: chmod o-r it, or put the password in \(Self.passwordVariable)"
    }
}
