import Foundation
import Testing
@testable import Fleet

/// Home Assistant's MQTT tag scanner discovery: the config's topic, template and device.
@Suite struct HomeAssistantDiscoveryTests {
    @Test("the discovery config names the records' topic, the tag id template and the device, and no key HA drops")
    func discoveryPayload() throws {
        var settings = try PublishSettings(url: "mqtt://b", site: "north", station: "kiosk-7")
        settings.homeAssistant = try HomeAssistantDiscovery()
        let configuration = settings.configuration(outbox: "/var/lib/nfctap/taps.jsonl", stationID: "6a491a2f6fb246d5a32cde095043633f",
                                                   softwareVersion: "0.1.0")
        let message = try #require(configuration.announcements.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
        #expect(message.topic == "homeassistant/tag/nfctap/" + configuration.clientID.replacingOccurrences(of: "nfctap-", with: "station_") + "/config")
        #expect(object["topic"] as? String == "nfctap/north/kiosk-7/taps")
        #expect(object["value_template"] as? String == "{{ value_json.uid }}")
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
    ])
    func refused(prefix: String, node: String, object: String?, field: String) {
        #expect(throws: PublishURLError.self) { try HomeAssistantDiscovery(prefix: prefix, node: node, object: object, field: field) }
    }
}
