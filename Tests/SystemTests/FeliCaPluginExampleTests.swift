import Foundation
import NFCTags
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// The cross-platform plugin example (an nfc_manager-style dispatcher written for iOS) polling
    /// `.iso18092` against a transit-shaped FeliCa card on a pass-through reader behind pcscd + vpcd.
    @Suite("Plugin example with a FeliCa card")
    struct FeliCaPluginExample {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        private func json(_ stdout: String, _ name: String) -> Any? {
            guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("\(name): ") }) else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(name.count + 2).utf8), options: [.fragmentsAllowed])
        }

        @Test("the plugin's FeliCa#polling answers the PMm and the system code the card returns")
        func pluginFeliCa() throws {
            let card = VirtualFeliCaCard.transitCard()
            let example = try ExampleProcess("TagInfoPluginExample", [
                "--poll", "iso18092",
                "--call", "FeliCa#polling systemCode=x:0003 requestCode=i:1",
            ], environment: ["NFCTAP_FELICA_SYSTEM_CODES": "0003"])
            example.waitUntilActive()
            let vpcd = try VPCDTag(card, port: TestPCSCD.port0, profile: .springcard).insert()
            defer { vpcd.remove() }
            #expect(example.finish() == 0, "\(example.stdout) \(example.stderr)")
            let polling = try #require(json(example.stdout, "FeliCa#polling") as? [String: Any], "\(example.stdout)")
            #expect("\(polling)".contains(card.pmm.map { String(format: "%02X", $0) }.joined())
                    || "\(polling)".lowercased().contains(card.pmm.map { String(format: "%02x", $0) }.joined()), "\(polling)")
        }
    }
}
