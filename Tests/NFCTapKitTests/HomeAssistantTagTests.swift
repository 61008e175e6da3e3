import Foundation
import NDEF
@testable import NFCTapKit
import RecordOutput
import Testing

/// Home Assistant's tag URL (`https://www.home-assistant.io/tag/<id>`, what HA's apps write): the
/// id nfctap's records carry as `haTag`, so that HA sees one tag whichever reader scans it.
@Suite struct HomeAssistantTagTests {
    static let id = "8f6c7e2a-0b1d-4c3e-9a5f-2d7e1b0c4a6f"

    static func message(_ records: [NDEFRecord]) -> NDEFMessage { NDEFMessage(records: records) }

    @Test("the id of HA's tag URL, in a URI record or a Smart Poster, after other records")
    func recognised() throws {
        let uri = URIRecord(uri: HomeAssistantTag.url(for: Self.id)).record()
        #expect(HomeAssistantTag.id(in: Self.message([uri])) == Self.id)
        let text = TextRecord(text: "kitchen", language: "en").record
        #expect(HomeAssistantTag.id(in: Self.message([try text(), uri])) == Self.id)
        let poster = try SmartPoster(uri: HomeAssistantTag.url(for: "kitchen_door")).record()
        #expect(HomeAssistantTag.id(in: Self.message([poster])) == "kitchen_door")
    }

    @Test("not an HA tag: another URL, an empty or hostile id, a look-alike host", arguments: [
        "https://example.com/tag/abc", "https://www.home-assistant.io/tag/", "https://www.home-assistant.io/tag/a/b",
        "https://www.home-assistant.io/tag/a\u{202E}b", "https://www.home-assistant.io/tag/a b", "http://www.home-assistant.io/tag/abc",
        "https://www.home-assistant.io.evil.example/tag/abc", "https://www.home-assistant.io/tag/" + String(repeating: "a", count: 129),
    ])
    func refused(url: String) {
        #expect(HomeAssistantTag.id(in: Self.message([URIRecord(uri: url).record()])) == nil)
    }

    @Test("an inventory JSON record carries haTag after uid, only when the tag holds one; CSV keeps its columns")
    func inventoryRecord() {
        var record = InventoryOutputTests.record
        #expect(!InventoryFormat.jsonl.encode(record).contains("haTag"))
        record.haTag = Self.id
        #expect(InventoryFormat.jsonl.encode(record).contains(#""uid":"04102030405001","haTag":"\#(Self.id)","type":"#))
        #expect(InventoryFormat.csv.encode(record) == InventoryFormat.csv.encode(InventoryOutputTests.record))
    }
}
