import Fleet
import Foundation
import Testing
@testable import NFCTapKit

/// The kiosk's `"publish"` key (docs/fleet.md).
@Suite("Kiosk configuration: publish")
struct KioskPublishConfigurationTests {
    static func problem(_ json: String) -> String? { KioskConfigurationTests.problem(json) }

    @Test func readsEveryKey() throws {
        // The CA file is checked when the configuration is read: PEM framing around base64 of a DER SEQUENCE.
        let ca = NSTemporaryDirectory() + "kiosk-ca-\(UUID().uuidString).pem"
        defer { try? FileManager.default.removeItem(atPath: ca) }
        let der = Data([0x30, 0x14] + [UInt8](repeating: 0x02, count: 20)).base64EncodedString()
        try "-----BEGIN CERTIFICATE-----\n\(der)\n-----END CERTIFICATE-----\n".write(toFile: ca, atomically: true, encoding: .utf8)
        let c = try KioskConfigurationTests.parse("""
            {"action": "json", "output": "/var/lib/nfctap/taps.jsonl",
             "publish": {"url": "mqtts://kiosk:pw@broker.site:8884", "caFile": "\(ca)", "site": "north", "station": "kiosk-7"}}
            """)
        let publish = try #require(c.publish)
        #expect(publish.url.host == "broker.site" && publish.url.port == 8884 && publish.url.secure)
        #expect(publish.topic == "nfctap/north/kiosk-7/taps" && publish.caFile == ca)
    }

    @Test(arguments: [
        (#"{"action": "json", "publish": {"url": "mqtt://b/t"}}"#, "needs \"output\" to be a file"),
        (#"{"action": "exec", "command": "/usr/local/bin/on-tap", "output": "/x.jsonl", "publish": {"url": "mqtt://b/t"}}"#, "writes none"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtt://b/t", "qos": 2}}"#, "publish.qos"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {}}"#, "publish.url"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtt://:pw@/t"}}"#, "no broker host"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtt://b"}}"#, "no topic"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtt://b", "site": "a/b"}}"#, "one non-empty topic level"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtts://b/t", "caFile": "ca.pem"}}"#, "absolute path"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": "mqtt://b/t"}"#, "expected an object"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtts://b/t", "caFile": "/nonexistent/ca.pem"}}"#, "CA file /nonexistent/ca.pem"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtt://b/$SYS/t"}}"#, "broker's own"),
        (#"{"action": "json", "output": "/x.jsonl", "homeassistant": {}}"#, "needs \"publish\""),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtt://b/t"}, "homeassistant": {"field": "uid }}"}}"#, "tag id field"),
        (#"{"action": "json", "output": "/x.jsonl", "publish": {"url": "mqtt://b/t"}, "homeassistant": {"qos": 1}}"#, "homeassistant.qos"),
    ])
    func refuses(json: String, expected: String) {
        let message = Self.problem(json)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
        #expect(message?.contains("pw") != true)
    }

    @Test func homeAssistantAnnouncesTheStation() throws {
        let c = try KioskConfigurationTests.parse("""
            {"action": "json", "output": "/var/lib/nfctap/taps.jsonl", "publish": {"url": "mqtt://b", "site": "n", "station": "k"},
             "homeassistant": {"prefix": "ha", "field": "uid"}}
            """)
        #expect(c.publish?.homeAssistant == (try HomeAssistantDiscovery(prefix: "ha")))
    }

    @Test func warnsWhenEveryoneCanReadThePassword() throws {
        let path = NSTemporaryDirectory() + "kiosk-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data("{}".utf8))
        let withPassword = try PublishSettings(url: "mqtt://u:secret@b/t", environment: [:])
        chmod(path, 0o644)
        let warning = try #require(withPassword.worldReadableWarning(configurationPath: path))
        #expect(!warning.contains("secret") && warning.contains("every user can read it"))
        chmod(path, 0o640)
        #expect(withPassword.worldReadableWarning(configurationPath: path) == nil)
        chmod(path, 0o644)
        #expect(try PublishSettings(url: "mqtt://u@b/t", environment: [:]).worldReadableWarning(configurationPath: path) == nil)
    }
}
