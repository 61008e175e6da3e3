import SafeText

/// MQTT topic names for records and station status (docs/fleet.md: topics).
///
/// Records go to `nfctap/<site>/<station>/taps` (or the URL's topic); the station's retained
/// status, `online`/`offline` (also its Last Will), to the sibling `…/status`.
public enum Topic {
    /// Longest topic accepted (MQTT 3.1.1 §1.5.3: a UTF-8 string of at most 65,535 bytes).
    public static let maxBytes = 65_535

    /// Longest site or station name (bytes): one topic level, kept short enough for every
    /// broker's topic and client limits.
    public static let maxLevelBytes = 128

    /// A topic a message may be published to: non-empty, no wildcards (`+`, `#`), no control
    /// characters, not starting with `$` (`$SYS/…` and other `$` topics belong to the broker,
    /// MQTT 3.1.1 §4.7.2: it never delivers what a client publishes there).
    /// - Throws: `PublishURLError.badTopic`.
    public static func validate(_ topic: String) throws {
        if topic.isEmpty { throw PublishURLError.badTopic(topic, reason: "empty") }
        if topic.utf8.count > maxBytes { throw PublishURLError.badTopic(String(topic.prefix(40)) + "…", reason: "longer than 65535 bytes") }
        if topic.hasPrefix("$") {
            throw PublishURLError.badTopic(String(topic.prefix(40)), reason: "topics starting with '$' ($SYS/…) are the broker's own: it delivers nothing published there")
        }
        if topic.unicodeScalars.contains(where: SafeText.needsEscape) {
            throw PublishURLError.badTopic(SafeText.escaped(String(topic.prefix(40))), reason: "contains control, bidi or zero-width characters")
        }
        if topic.contains("+") || topic.contains("#") {
            throw PublishURLError.badTopic(topic, reason: "'+' and '#' are subscription wildcards, not allowed when publishing")
        }
        if topic.unicodeScalars.contains(where: { $0.value == 0 }) { throw PublishURLError.badTopic(topic, reason: "contains NUL") }
    }

    /// A site or station name: one topic level.
    /// - Throws: `PublishURLError.badTopic`.
    public static func validateLevel(_ name: String, what: String) throws {
        guard name.utf8.count <= maxLevelBytes else {
            throw PublishURLError.badTopic(String(name.prefix(40)) + "…", reason: "a \(what) name is at most \(maxLevelBytes) bytes (this one is \(name.utf8.count))")
        }
        guard !name.isEmpty, !name.hasPrefix("$"), !name.contains("/"), !name.contains("+"), !name.contains("#"),
              !name.unicodeScalars.contains(where: SafeText.needsEscape) else {
            throw PublishURLError.badTopic(SafeText.escaped(name), reason: "a \(what) name is one non-empty topic level: no '/', '+', '#', leading '$', control, bidi or zero-width characters")
        }
    }

    /// `nfctap/<site>/<station>/taps`.
    public static func taps(site: String, station: String) -> String { "nfctap/\(site)/\(station)/taps" }

    /// The station's Home Assistant topic (its taps as HA's tag scanner reads them, docs/fleet.md):
    /// `…/homeassistant` next to a topic ending in `/taps`, else `<topic>/homeassistant`.
    public static func homeAssistant(forRecords topic: String) -> String {
        if topic.hasSuffix("/taps") { return String(topic.dropLast("taps".count)) + "homeassistant" }
        return topic + "/homeassistant"
    }

    /// The station's status topic: `…/status` next to a topic ending in `/taps`, else `<topic>/status`.
    public static func status(forRecords topic: String) -> String {
        if topic.hasSuffix("/taps") { return String(topic.dropLast("taps".count)) + "status" }
        return topic + "/status"
    }
}
