import Foundation
import NDEF
import NFCTags
import Testing
import TagEmulation

// FeliCa Lite-S behind pcscd + vpcd, on an emulated reader that passes FeliCa frames through the
// PC/SC Part 3 transparent exchange (`FF C2`), as the Sony RC-S300 does (docs/tags-and-readers.md §9.1).
extension PCSCSystemTests {
    @Suite("FeliCa through pcscd, vpcd and a pass-through reader")
    struct FeliCaPCSCSystemTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let environment = ["LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""]

        /// `card` on vpcd reader 0 behind a reader personality that implements `FF C2`.
        func withCard(_ card: VirtualFeliCaCard, profile: PCSCReaderProfile = .springcard,
                      _ body: (EmulatedPCSCReader) throws -> Void) throws {
            try TestPCSCD.withCard(card, profile: profile, body)
        }

        @Test("scan, write and inventory a Lite-S: FF C2 session once, Nbr blocks per read, WriteF cleared last")
        func scanWriteInventory() throws {
            let message = try NDEFMessage(records: [.uri("https://example.com/rc-s300")]).encoded()
            let card = VirtualFeliCaCard.liteS(ndef: message)
            try withCard(card) { reader in
                let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(scan.status == 0, "\(scan.stderr)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any], "\(scan.stdout)")
                #expect(object["uid"] as? String == card.idm.hexString)
                #expect(object["type"] as? String == "felica")
                #expect(scan.stdout.contains("https://example.com/rc-s300"))
                let frames = reader.plan.log.filter { $0.starts(with: [0xFF, 0xC2, 0x00, 0x01]) }
                // Polling 12FC, block 0, ⌈3 blocks / 4⌉ = 1 read.
                #expect(frames.count == 3, "\(reader.plan.log.map { $0.hexString(separator: " ") })")
                #expect(reader.plan.log.filter { $0 == PCSCFeliCaChannel.startSession }.count == 1)

                reader.plan.reset()
                let write = try runCLI(["write", "--uri", "https://example.com/written", "--json", "--timeout", "20",
                                        "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(write.status == 0, "\(write.stderr)")
                let aib = try Type3AttributeBlock(block: card.block(0)!)
                #expect(!aib.writeInProgress)
                let written = try NDEFMessage(records: [.uri("https://example.com/written")]).encoded()
                #expect(aib.length == written.count)

                let dir = try makeTemporaryDirectory()
                defer { try? FileManager.default.removeItem(at: dir) }
                let output = dir.appendingPathComponent("inventory.jsonl").path
                let inventory = try runCLI(["inventory", "--output", output, "--timeout", "3", "--reader", TestPCSCD.reader0],
                                           environment: Self.environment)
                #expect(inventory.status == 0, "\(inventory.stderr)")
                let text = try String(contentsOfFile: output, encoding: .utf8)
                #expect(text.contains(card.idm.hexString) && text.contains("https://example.com/written"), "\(text)")
            }
        }

        @Test("a reader without a pass-through says it cannot reach FeliCa")
        func readerWithoutPassThrough() throws {
            try withCard(.liteS(ndef: [0xD0, 0x00, 0x00]), profile: .generic) { _ in
                let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0], environment: Self.environment)
                #expect(scan.stdout.contains("FeliCa through this reader") || scan.stderr.contains("FeliCa through this reader"),
                        "\(scan.stdout) \(scan.stderr)")
            }
        }
    }
}
