import Foundation
import NFCTapKitTestSupport
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3: `nfctap kiosk` with `"publish"`, taps through pcscd + vpcd, the broker away for some.
    @Suite("kiosk publish through pcscd + vpcd and mosquitto",
           .enabled(if: SystemEnvironment.available("mosquitto"), "needs the test broker"))
    struct KioskPublish {
        @Test("kiosk taps reach the broker in order, also those made while it was down; password never logged")
        func kioskPublishes() throws {
            defer { TestBroker.ctl("start") }
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
            let dir = try kioskDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let config = dir.appendingPathComponent("kiosk.json").path
            let output = dir.appendingPathComponent("taps.jsonl").path
            let site = "site-\(UUID().uuidString.prefix(8))"
            try #"""
                {"action": "json", "output": "\#(output)", "readers": ["\#(TestPCSCD.reader0)"], "backends": {"pcsc": true, "libnfc": []},
                 "publish": {"url": "mqtt://kiosk:kiosk-pw-77@127.0.0.1:\#(TestBroker.port)", "site": "\#(site)", "station": "kiosk-1"}}
                """#.write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o644)
            let consumer = try startConsumer(topic: "nfctap/\(site)/kiosk-1/taps")
            defer { consumer.stop() }

            let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config])
            kiosk.waitForLog("world-readable warning") { $0.hasPrefix("<4>") && $0.contains("every user can read it") }
            kiosk.waitForLog("connected") { $0.contains("MQTT: connected to mqtt://kiosk:***@127.0.0.1") }
            let reader = EmulatedPCSCReader(profile: .generic, tag: try KioskTags.uri("https://example.com/k/1", uid: 1))
            let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
            for n in 1...5 {
                if n == 2 { TestBroker.ctl("stop") }   // taps 2 and 3 made with the broker away
                if n == 4 { TestBroker.ctl("start") }
                reader.tag = try KioskTags.uri("https://example.com/k/\(n)", uid: UInt8(n))
                try card.insert()
                _ = try waitForJSONLines(output, count: n)
                card.remove()
                try TestPCSCD.waitUntilReadersAreEmpty()
            }
            #expect(LineProcess.waitUntil(30) { consumer.lines.count >= 5 })
            #expect(kiosk.terminate() == 0)
            var uids: [String] = []
            var ids = Set<String>()
            for line in consumer.lines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let id = try #require(object["recordId"] as? String)
                if ids.insert(id).inserted { uids.append(object["uid"] as? String ?? "") }
            }
            #expect(uids == (1...5).map { String(format: "0411223344550%d", $0) })
            #expect(!kiosk.lines.joined().contains("kiosk-pw-77"), "\(kiosk.lines)")
        }
    }
}
