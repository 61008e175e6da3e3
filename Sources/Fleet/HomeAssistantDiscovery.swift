import SafeText
import RecordOutput
import Foundation

/// Home Assistant's MQTT discovery for a station as a tag scanner (docs/fleet.md, "Home
/// Assistant"): a retained config at `<prefix>/tag/<node>/<object>/config` naming the records'
/// station's HA topic (`HomeAssistantDelivery` decides when each tap goes there), a
/// `value_template` that takes the tag id, and a device (identifiers, model, sw_version).
public struct HomeAssistantDiscovery: Equatable, Sendable {
    /// The discovery prefix (HA's default "homeassistant").
    public var prefix: String
    /// `<node>` in the discovery topic.
    public var node: String
    /// `<object>`: nil = derived from the station id and the records' topic (never from the file).
    public var object: String?
    /// The record field that is the tag id HA sees (`uid`, or e.g. an NDEF field a writer adds).
    public var field: String

    /// Longest discovery prefix: `<prefix>/tag/<node ≤ 64>/<object ≤ 64>/config` within `Topic.maxBytes`.
    public static let maxPrefixBytes = Topic.maxBytes - "/tag/".utf8.count - 64 - 1 - 64 - "/config".utf8.count

    public init(prefix: String = "homeassistant", node: String = "nfctap", object: String? = nil, field: String = "uid") throws {
        try Topic.validate(prefix)
        // HA reads `<prefix>/tag/<node>/<object>/config`: no empty level, and the whole topic
        // within MQTT's 65,535 bytes (node and object at most 64 bytes each).
        if prefix.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw PublishURLError.badTopic(String(prefix.prefix(40)), reason: "a Home Assistant discovery prefix has no empty topic level (no leading, trailing or double '/')")
        }
        if prefix.utf8.count > Self.maxPrefixBytes {
            throw PublishURLError.badTopic(String(prefix.prefix(40)) + "…", reason: "a Home Assistant discovery prefix is at most \(Self.maxPrefixBytes) bytes (the discovery topic must fit MQTT's 65535)")
        }
        for (name, value) in [("node", node), ("object", object ?? "x")] {
            guard !value.isEmpty, value.utf8.count <= 64,
                  value.utf8.allSatisfy({ ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }) else {
                throw PublishURLError.badTopic(String(value.prefix(40)), reason: "a Home Assistant \(name) id is 1-64 characters of A-Z, a-z, 0-9, '_' and '-'")
            }
        }
        // The field goes into a Jinja template: a plain identifier only.
        guard let first = field.utf8.first, !(0x30...0x39).contains(first), field.utf8.count <= 64,
              field.utf8.allSatisfy({ ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }) else {
            throw PublishURLError.badTopic(String(field.prefix(40)), reason: "the tag id field is a record key: letters, digits and '_'")
        }
        self.prefix = prefix
        self.node = node
        self.object = object
        self.field = field
    }

    /// The topic of HA's birth and last will (HA's default: `<prefix>/status`, `online`/`offline`).
    public var statusTopic: String { prefix + "/status" }

    /// What HA's tag scanner reads from each message on the station's HA topic.
    public static let valueTemplate = "{{ value_json.tagId }}"

    /// The tag id a record gives HA: HA's own tag id (`haTag`, from HA's tag URL on the tag)
    /// when there is one, else `field`'s value, escaped (`SafeText`: a field may hold tag text).
    /// nil when that is null, empty, missing or not text (such a record is not sent to HA: it
    /// would be a tag named "None" or "").
    public func tagID(inRecord line: ArraySlice<UInt8>) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else { return nil }
        return tagID(in: object)
    }

    private func tagID(in object: [String: Any]) -> String? {
        for key in ["haTag", field] {
            if let value = object[key] as? String, !value.isEmpty, value.utf8.count <= 256 { return SafeText.escaped(value) }
        }
        return nil
    }

    /// The message for HA: `{"recordId", "tagId", "time"}` (the tap's own time, so a tap held
    /// while HA was away still says when it happened); nil for a record without a tag id.
    public func payload(record line: ArraySlice<UInt8>, id: String) -> [UInt8]? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
              let tag = tagID(in: object) else { return nil }
        var fields: [(String, JSONValue)] = [("recordId", .string(id)), ("tagId", .string(tag))]
        if let time = object["time"] as? String, time.utf8.count <= 64 {
            fields.append(("time", .string(SafeText.escaped(time))))
        }
        return Array(JSONValue.object(fields).jsonText.utf8)
    }

    /// The retained discovery config's topic for `configuration`'s station.
    public func configTopic(for configuration: ForwarderConfiguration) -> String {
        // One tag scanner per station and topic, whichever file publishes to it (a kiosk reload to
        // another output file, a second file of the station): not the client id, which names the file.
        "\(prefix)/tag/\(node)/\(objectID(for: configuration))/config"
    }

    private func objectID(for configuration: ForwarderConfiguration) -> String {
        object ?? "station_" + String(StationIdentity.fnv1a64(configuration.stationID + "\u{0}" + configuration.topic), radix: 16).leftPadded(16)
    }

    /// The retained discovery message for `configuration`'s station.
    public func message(for configuration: ForwarderConfiguration, softwareVersion: String) -> (topic: String, payload: [UInt8]) {
        // HA's MQTT tag platform keeps only topic, value_template, device, qos and encoding
        // (no availability: it drops it).
        let payload: JSONValue = .object([
            ("topic", .string(Topic.homeAssistant(forRecords: configuration.topic))),
            ("value_template", .string(Self.valueTemplate)),
            ("device", .object([
                ("identifiers", .array([.string("nfctap_\(configuration.stationID)_\(objectID(for: configuration))")])),
                ("name", .string(SafeText.escaped("nfctap \(Topic.stationName(ofRecords: configuration.topic))"))),
                ("manufacturer", .string("nfctap")),
                ("model", .string("nfctap NFC station")),
                ("sw_version", .string(softwareVersion)),
            ])),
        ])
        return (configTopic(for: configuration), Array(payload.jsonText.utf8))
    }
}

extension Topic {
    /// `<station>` of `nfctap/<site>/<station>/taps`, else the topic itself.
    static func stationName(ofRecords topic: String) -> String {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        if levels.count == 4, levels[0] == "nfctap", levels[3] == "taps" { return String(levels[2]) }
        return topic
    }
}
