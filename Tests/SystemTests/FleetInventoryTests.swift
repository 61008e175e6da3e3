@testable import CoreNFCLinux
import Foundation
import NFCTapKitTestSupport
import PCSC
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3: `nfctap inventory --publish` as a user runs it, taps through pcscd + vpcd, the test
    /// broker restarted and frozen between taps. Nested in the PC/SC suite (shares pcscd).
    @Suite("inventory --publish through pcscd + vpcd and mosquitto",
           .enabled(if: SystemEnvironment.available("mosquitto"), "needs the test broker"))
    struct InventoryPublish {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        @Test("60 real taps: each confirmed on disk, each published once per id, in order, through a broker restart and freeze")
        func tapsArePublished() throws {
            defer { TestBroker.ctl("start") }
            let dir = try TemporaryDirectory()
            let path = dir.path("taps.jsonl")
            let topic = "nfctap/inventory-\(UUID().uuidString.prefix(8))/bench/taps"
            let consumer = try startConsumer(topic: topic)
            defer { consumer.stop() }
            let cli = try LiveCLI(["inventory", "--output", path, "--publish", "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)"])
            cli.waitFor("Inventory: tap tags")
            let taps = 60
            for n in 1...taps {
                if n == 20 { TestBroker.ctl("stop") }      // taps 20…29 confirmed while the broker is away
                if n == 30 { TestBroker.ctl("start") }
                if n == 40 { TestBroker.ctl("pause") }     // 40…49 with the broker frozen
                if n == 50 { TestBroker.ctl("resume") }
                let card = try InventoryOverPCSC.card(UInt8(n), port: n % 2 == 0 ? TestPCSCD.port1 : TestPCSCD.port0)
                try card.insert()
                cli.waitFor("✓ #\(n) ")
                card.remove()
                try TestPCSCD.waitUntilReadersAreEmpty()
            }
            #expect(LineProcess.waitUntil(60) { Delivery(consumer.lines).complete(taps) }, "\(cli.stderr.suffix(1500))")
            cli.signal(SIGTERM)
            #expect(cli.finish() == 0)
            let delivery = Delivery(consumer.lines)
            delivery.verify(taps)
            // Each message is the file's record, byte for byte, with "recordId" put first.
            let fileLines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(fileLines.count == taps)
            var firstCopies: [Int: String] = [:]
            for line in consumer.lines {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let seq = object["seq"] as? Int, firstCopies[seq] == nil else { continue }
                firstCopies[seq] = line
            }
            for (index, record) in fileLines.enumerated() {
                let message = try #require(firstCopies[index + 1])
                let prefix = try #require(message.range(of: "\",")).upperBound
                #expect(message.hasPrefix("{\"recordId\":\"") && message[..<prefix].hasSuffix("-\(index + 1)\","))
                #expect("{" + message[prefix...] == record, "seq \(index + 1)")
            }
            #expect(cli.stderr.contains("MQTT: connected to mqtt://127.0.0.1:\(TestBroker.port)/\(topic)"))
            #expect(cli.stderr.contains("backlog"), "the status line shows the backlog: \(cli.stderr)")
        }
    }
}
