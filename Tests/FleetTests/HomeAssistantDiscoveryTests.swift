import Foundation
import Testing
@testable import Fleet

/// Home Assistant's MQTT tag scanner discovery: the config's topic, template and device.
@Suite struct HomeAssistantDiscoveryTests {
    @Test("the discovery config names the station's HA topic, the tag id template and the device, and no key HA drops")
    func discoveryPayload() throws {
        var settings = try PublishSettings(url: "mqtt://b", site: "north", station: "kiosk-7")
        settings.homeAssistant = try HomeAssistantDiscovery()
        let configuration = settings.configuration(outbox: "/var/lib/nfctap/taps.jsonl", stationID: "6a491a2f6fb246d5a32cde095043633f",
                                                   softwareVersion: "0.1.0")
        let message = try #require(configuration.announcements.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
        #expect(message.topic.hasPrefix("homeassistant/tag/nfctap/station_") && message.topic.hasSuffix("/config"), "\(message.topic)")
        // Another file of the same station (a kiosk reload to a new output file) is the same tag
        // scanner: the same config topic and device; another station is another scanner.
        let other = settings.configuration(outbox: "/var/lib/nfctap/taps-2025.jsonl", stationID: "6a491a2f6fb246d5a32cde095043633f",
                                           softwareVersion: "0.1.0")
        #expect(other.clientID != configuration.clientID)
        #expect(other.announcements.first?.topic == message.topic)
        #expect(other.announcements.first?.payload == message.payload)
        let elsewhere = settings.configuration(outbox: "/var/lib/nfctap/taps.jsonl", stationID: "0f491a2f6fb246d5a32cde095043633f",
                                               softwareVersion: "0.1.0")
        #expect(elsewhere.announcements.first?.topic != message.topic)
        #expect(object["topic"] as? String == "nfctap/north/kiosk-7/homeassistant")
        #expect(object["value_template"] as? String == "{{ value_json.tagId }}")
        #expect(configuration.homeAssistant?.statusTopic == "homeassistant/status")
        let device = try #require(object["device"] as? [String: Any])
        #expect((device["identifiers"] as? [String])?.first?.hasPrefix("nfctap_6a491a2f") == true)
        #expect(device["model"] as? String == "nfctap NFC station" && device["sw_version"] as? String == "0.1.0")
        #expect(device["name"] as? String == "nfctap kiosk-7")
        // Only the keys HA's MQTT tag platform keeps (it removes the others, availability among them).
        #expect(Set(object.keys).isSubset(of: ["topic", "value_template", "device", "qos", "encoding"]), "\(object.keys.sorted())")
    }

    @Test("ids and the field are checked: no wildcards, slashes or template code", arguments: [
        ("homeassistant", "no/de", nil as String?, "uid"), ("home+assistant", "nfctap", nil, "uid"), ("$SYS", "nfctap", nil, "uid"),
        ("homeassistant", "nfctap", "a b", "uid"), ("homeassistant", "nfctap", nil, "uid }}{{ 7*7"), ("homeassistant", "nfctap", nil, "9x"),
        // Empty levels HA never reads, and a prefix whose discovery topic cannot fit MQTT's 65,535 bytes.
        ("homeassistant/", "nfctap", nil, "uid"), ("/homeassistant", "nfctap", nil, "uid"), ("home//assistant", "nfctap", nil, "uid"),
        (String(repeating: "h", count: 65_500), "nfctap", nil, "uid"),
        // Bidi and zero-width characters would reach HA's device list.
        ("home\u{202E}assistant", "nfctap", nil, "uid"), ("home\u{200B}assistant", "nfctap", nil, "uid"),
    ])
    func refused(prefix: String, node: String, object: String?, field: String) {
        #expect(throws: PublishURLError.self) { try HomeAssistantDiscovery(prefix: prefix, node: node, object: object, field: field) }
    }

    @Test("the longest prefix whose discovery topic fits MQTT's limit is accepted, and its topic fits")
    func longestPrefix() throws {
        let prefix = String(repeating: "h", count: HomeAssistantDiscovery.maxPrefixBytes)
        let discovery = try HomeAssistantDiscovery(prefix: prefix, node: String(repeating: "n", count: 64), object: String(repeating: "o", count: 64))
        var settings = try PublishSettings(url: "mqtt://b", site: "north", station: "kiosk-7")
        settings.homeAssistant = discovery
        let configuration = settings.configuration(outbox: "/tmp/t.jsonl", stationID: "6a491a2f6fb246d5a32cde095043633f", softwareVersion: "0.1.0")
        let message = try #require(configuration.announcements.first)
        #expect(message.topic.utf8.count == 65_535)
        #expect(throws: Never.self) { try Topic.validate(message.topic) }
    }

    @Test("a station or site name with bidi or zero-width characters is refused at start, shown escaped", arguments: ["kiosk\u{202E}7", "kio\u{200B}sk", "k\u{1B}[2J"])
    func hostileStationName(name: String) {
        #expect {
            _ = try PublishSettings(url: "mqtt://b", site: "north", station: name)
        } throws: { error in
            let text = "\(error)"
            return !text.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{200B}" || $0 == "\u{1B}" }
        }
    }

    @Test("HA's message: HA's own tag id first, else the field; none for a null, empty, missing or non-text id; the tap's time kept")
    func tagIDs() throws {
        let discovery = try HomeAssistantDiscovery()
        func message(_ record: String) -> [String: String]? {
            discovery.payload(record: Array(record.utf8)[...], id: "s-f-1").flatMap {
                try? JSONSerialization.jsonObject(with: Data($0)) as? [String: String]
            }
        }
        #expect(message(#"{"time":"2026-12-02T10:00:00.000Z","uid":"04A1B2"}"#) == ["recordId": "s-f-1", "tagId": "04A1B2", "time": "2026-12-02T10:00:00.000Z"])
        #expect(message(#"{"uid":"04A1B2","haTag":"8f6c7e2a-0b1d"}"#)?["tagId"] == "8f6c7e2a-0b1d")
        #expect(message(#"{"uid":"04A1B2","haTag":""}"#)?["tagId"] == "04A1B2")
        for record in [#"{"uid":null}"#, #"{"uid":""}"#, #"{"serial":"XXRBJ"}"#, #"{"uid":7}"#, "not json", #"["uid"]"#] {
            #expect(message(record) == nil, "\(record)")
        }
        // A field holding tag text reaches HA escaped: no control, bidi or zero-width character.
        let hostile = try #require(message("{\"uid\":\"k\\u001b]0;pwned\\u0007\\u202e\"}")?["tagId"])
        #expect(!hostile.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" }, "\(hostile)")
        #expect(hostile.hasPrefix("k"))
        let serial = try HomeAssistantDiscovery(field: "serial")
        #expect(serial.tagID(inRecord: Array(#"{"uid":"04","serial":"XXRBJ"}"#.utf8)[...]) == "XXRBJ")
    }
}
