import Foundation
@testable import NFCTapKit
import NFCTapKitTestSupport
import RecordOutput
import Testing

/// `inventory` and `kiosk` records, in-process with virtual readers: CSV cells neutralised,
/// JSON escaped, a deleted output followed.
@Suite("records: what taps write (in-process, virtual readers)")
struct RecordsInProcessTests {
    @Test("inventory CSV: a tag text starting with = + - @ is neutralised with a leading quote", arguments: [
        "=HYPERLINK(\"http://evil.example\",\"Click\")", "+1+1", "-2+3", "@SUM(A1)",
    ])
    func csvNeutralised(text: String) throws {
        let h = try InventoryHarness(readers: ["Desk A"], format: .csv, file: "taps.csv")
        h.start()
        _ = try h.tap(try inventoryTag(uid: 1, text: text), on: "Desk A")
        _ = try h.stop()
        let rows = parseCSV(try String(contentsOfFile: h.path, encoding: .utf8))
        #expect(rows.count == 2)
        #expect(rows.last?[6] == "'" + text)
    }

    @Test("inventory JSON Lines: C1, bidi and U+2028/9 written as \\u escapes, the same text after parsing")
    func jsonEscaped() throws {
        let hostile = "x\u{9B}31my\u{202E}z\u{2028}w\u{2029}v\u{2066}u"
        let h = try InventoryHarness(readers: ["Desk A"])
        h.start()
        _ = try h.tap(try inventoryTag(uid: 1, text: hostile), on: "Desk A")
        _ = try h.stop()
        let raw = try String(contentsOfFile: h.path, encoding: .utf8)
        #expect(!raw.unicodeScalars.contains { JSONString.needsEscape($0) && $0 != "\n" })
        #expect(raw.components(separatedBy: "\n").count == 2)  // one line and the final LF
        #expect(try parseJSONLines(raw).first?["summary"] as? String == hostile)
    }

    @Test("inventory: the output deleted mid-run; the next record goes to a new file at the path")
    func inventoryOutputDeleted() throws {
        let h = try InventoryHarness(readers: ["Desk A"])
        h.start()
        _ = try h.tap(try inventoryTag(uid: 1, uri: "https://example.com/1"), on: "Desk A")
        try FileManager.default.removeItem(atPath: h.path)
        h.backend.remove(from: "Desk A")
        _ = try h.tap(try inventoryTag(uid: 2, uri: "https://example.com/2"), on: "Desk A")
        _ = try h.stop()
        let lines = try parseJSONLines(try String(contentsOfFile: h.path, encoding: .utf8))
        #expect(lines.map { $0["uid"] as? String } == ["04102030405002"])
        #expect(lines.first?["seq"] as? Int == 2)
    }

    @Test("kiosk: the output deleted while running; the next line goes to a new file, green")
    func kioskOutputDeleted() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("taps.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(path)"}"#))
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        try FileManager.default.removeItem(atPath: path)
        await kiosk.tap(try KioskTags.uri("https://example.com/b", uid: 2), expectTap: 2)
        await kiosk.stop()
        #expect(try jsonLines(path).map { $0["uid"] as? String } == ["04112233445502"])
        #expect(kiosk.feedback == [.success, .success])
    }
}
