import Foundation
import NFCTags
import TagEmulation
import Testing

extension PCSCSystemTests.PortedPluginExamplesOverPCSC {
    /// The plugin example (an nfc_manager-style dispatcher written for iOS) polling `.iso18092`
    /// against a transit-shaped FeliCa card on a pass-through reader behind pcscd + vpcd.
    @Test("plugin example: FeliCa#polling on a transit card answers the card's PMm")
    func pluginFeliCa() throws {
        let card = VirtualFeliCaCard.transitCard()
        let example = try ExampleProcess("TagInfoPluginExample", [
            "--poll", "iso18092",
            "--call", "FeliCa#polling systemCode=x:0003 requestCode=i:1",
        ], environment: ["NFCTAP_FELICA_SYSTEM_CODES": "0003"])
        example.waitUntilActive()
        let vpcd = try VPCDTag(card, port: port0, profile: .springcard).insert()
        defer { vpcd.remove() }
        #expect(example.finish() == 0, "\(example.stdout) \(example.stderr)")
        let polling = try #require(json(example.stdout, "FeliCa#polling") as? [String: Any], "\(example.stdout)")
        let pmm = card.pmm.map { String(format: "%02x", $0) }.joined()
        #expect("\(polling)".lowercased().contains(pmm), "\(polling)")
    }
}
