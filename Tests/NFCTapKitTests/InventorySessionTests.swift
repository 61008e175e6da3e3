@testable import CoreNFCLinux
import Foundation
import NDEF
@testable import NFCTapKit
import NFCTapKitTestSupport
import RecordOutput
import TagEmulation
import Testing

/// `inventory` in-process: the real session over virtual readers, the real recorder and file.
@Suite("inventory over virtual readers")
struct InventorySessionTests {
    @Test("one record per tag per tap: left on = one, removed and replaced = two, two readers at once = two")
    func oneRecordPerTap() throws {
        let h = try InventoryHarness()
        h.start()
        let a = try inventoryTag(uid: 0x0A, uri: "https://example.com/a")
        let b = try inventoryTag(uid: 0x0B, text: "bee")
        #expect(try h.tap(a, on: "Desk A", at: .seconds(0)).record.uid == "0410203040500A")
        // A stays on Desk A while B is tapped: A is not recorded again.
        #expect(try h.tap(b, on: "Desk B", at: .seconds(1)).record.uid == "0410203040500B")
        // A taken off and put back: a second tap, 2 s after the first → a duplicate.
        h.backend.remove(from: "Desk A")
        let again = try h.tap(a, on: "Desk A", at: .seconds(2)).record
        #expect(again.uid == "0410203040500A")
        #expect(again.duplicate)
        // Both readers at once, 10 s later: two records, neither a duplicate (outside the window).
        h.elapsed.withLock { $0 = .seconds(12) }
        h.backend.remove(from: "Desk A")
        h.backend.remove(from: "Desk B")
        let c = try inventoryTag(uid: 0x0C, uri: "https://example.com/c")
        h.backend.place(c, on: "Desk A")
        h.backend.place(b, on: "Desk B")
        let pair = [try #require(h.confirmed.take(before: Date(timeIntervalSinceNow: 10))),
                    try #require(h.confirmed.take(before: Date(timeIntervalSinceNow: 10)))]
        #expect(Set(pair.map(\.record.uid)) == ["0410203040500C", "0410203040500B"])
        #expect(pair.allSatisfy { !$0.record.duplicate })
        #expect(try h.stop().code == .readerSessionInvalidationErrorUserCanceled)

        let lines = try parseJSONLines(h.fileText)
        #expect(lines.count == 5)
        #expect(lines.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5])
        #expect(lines.prefix(3).map { $0["uid"] as? String } == ["0410203040500A", "0410203040500B", "0410203040500A"])
        #expect(lines.map { $0["duplicate"] as? Bool } == [false, false, true, false, false])
        #expect(lines[0]["summary"] as? String == "https://example.com/a")
        #expect(lines[1]["summary"] as? String == "bee")
        #expect(lines[0]["product"] as? String == "NTAG213")
        #expect(lines[0]["reader"] as? String == "Desk A")
        #expect(lines[0]["time"] as? String == "2023-11-14T22:13:20.250Z")
        #expect(h.backend.feedbackLog.map(\.feedback) == Array(repeating: .success, count: 5))
        let stats = h.recorder.stats
        #expect(stats.taps == 5)
        #expect(stats.uniqueTags == 3)
        #expect(stats.duplicates == 1)
        #expect(stats.summaryLines(destination: "x") == [
            "Inventory: 5 taps, 3 unique tags, 1 duplicate", "  NTAG213: 5 taps, 3 tags", "Records: x",
        ])
    }

    @Test("the record is in the file before the reader's feedback, for every tap")
    func syncedBeforeFeedback() throws {
        let h = try InventoryHarness()
        h.start()
        for i in 0..<4 {
            h.backend.remove(from: "Desk A")
            try h.tap(try inventoryTag(uid: UInt8(i), uri: "https://example.com/\(i)"), on: "Desk A", at: .seconds(Int64(10 * i)))
        }
        _ = try h.stop()
        // At the n-th confirmation the file held n records and the reader had signalled n−1 taps.
        let observed = h.observed.current
        #expect(observed.map(\.fileRecords) == [1, 2, 3, 4])
        #expect(observed.map(\.feedback) == [0, 1, 2, 3])
        #expect(h.backend.feedbackLog.map(\.feedback) == [.success, .success, .success, .success])
    }

    @Test("CSV with hostile tag text and reader name: RFC 4180 quoting, fields read back exactly")
    func hostileCSV() throws {
        let reader = "Desk \"A\", left"
        let h = try InventoryHarness(readers: [reader], format: .csv, file: "taps.csv")
        h.start()
        let text = "He said \"hi\", then\nleft\r\n,\"\","
        try h.tap(try inventoryTag(uid: 0x01, text: text), on: reader)
        _ = try h.stop()
        let content = h.fileText
        #expect(content == InventoryFormat.csv.header!
                + "1,2023-11-14T22:13:20.250Z,04102030405001,type2,NTAG213,\"Desk \"\"A\"\", left\","
                + "\"He said \"\"hi\"\", then\nleft\r\n,\"\"\"\",\",,false,\r\n")
        let rows = parseCSV(content)
        #expect(rows.count == 2)
        #expect(rows[0] == InventoryRecord.columns)
        #expect(rows[1] == ["1", "2023-11-14T22:13:20.250Z", "04102030405001", "type2", "NTAG213", reader, text, "", "false", ""])
    }

    @Test("a tag pulled away mid-read is recorded with its error, and the reader shows red")
    func pulledMidRead() throws {
        let h = try InventoryHarness(readers: ["Desk A"])
        h.start()
        try #require(h.backend.reader(named: "Desk A")).plan.reset(leaveFieldAfter: 1)
        let first = try h.tap(try inventoryTag(uid: 0x01, uri: "https://example.com/x"), on: "Desk A", at: .seconds(0))
        #expect(!first.complete)
        #expect(first.record.summary == nil)
        #expect(first.record.error?.isEmpty == false)
        // Tapped again at once: read in full, flagged a duplicate of the failed tap.
        try #require(h.backend.reader(named: "Desk A")).plan.reset()
        let second = try h.tap(try inventoryTag(uid: 0x01, uri: "https://example.com/x"), on: "Desk A", at: .seconds(1))
        #expect(second.complete)
        #expect(second.record.duplicate)
        #expect(second.record.summary == "https://example.com/x")
        _ = try h.stop()
        #expect(h.backend.feedbackLog.map(\.feedback) == [.failure, .success])
        #expect(h.recorder.stats.incomplete == 1)
    }

    @Test("the Zebra printer's serial is recorded")
    func zebraSerial() throws {
        let h = try InventoryHarness(readers: ["Desk A"])
        h.start()
        let record = try h.tap(VirtualType2Tag.zebraZQ320(), on: "Desk A").record
        #expect(record.zebraSerial == "XXZFJ170700336")
        #expect(record.summary?.hasPrefix("http://www.zebra.com/apps/r/nfc?") == true)
        _ = try h.stop()
        #expect(try parseJSONLines(h.fileText).first?["zebraSerial"] as? String == "XXZFJ170700336")
    }

    @Test("a record that cannot be written: red on the reader, the inventory stops, nothing confirmed")
    func diskFull() throws {
        let h = try InventoryHarness(readers: ["Desk A"], calls: .diskFull(afterWriting: 10))
        let failures = DemoInbox<InventoryOutputError>()
        h.recorder.onFailure = { [run = h.run] error in
            failures.put(error)
            run.stop(.userCanceled)
        }
        h.start()
        h.backend.place(try inventoryTag(uid: 0x01, uri: "https://example.com/x"), on: "Desk A")
        let failure = try #require(failures.take(before: Date(timeIntervalSinceNow: 10)))
        #expect(failure == .io(operation: "writing to", path: h.path, errno: ENOSPC))
        #expect(try String(contentsOfFile: h.path, encoding: .utf8) == "")  // the torn record was cut back
        #expect(try #require(h.run.wait(timeout: .now() + 10)).code == .readerSessionInvalidationErrorUserCanceled)
        #expect(h.confirmed.take(before: Date()) == nil)
        #expect(h.backend.feedbackLog.map(\.feedback) == [.failure])
        #expect(h.recorder.stats.taps == 0)
    }

    @Test("appending to an inventory file: numbering goes on after its records")
    func numberingGoesOn() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.jsonl")
        for run in 0..<2 {
            let h = try InventoryHarness(readers: ["Desk A"], path: path)
            h.start()
            #expect(try h.tap(try inventoryTag(uid: UInt8(run), uri: "https://example.com/r"), on: "Desk A").record.sequence == run + 1)
            _ = try h.stop()
        }
        let lines = try parseJSONLines(try String(contentsOfFile: path, encoding: .utf8))
        #expect(lines.map { $0["seq"] as? Int } == [1, 2])
    }

    @Test("readers may come and go: the inventory goes on")
    func readersComeAndGo() throws {
        let h = try InventoryHarness(readers: ["Desk A"])
        h.start()
        try h.tap(try inventoryTag(uid: 0x01, uri: "https://example.com/1"), on: "Desk A")
        h.backend.removeReader("Desk A")
        h.backend.addReader("Desk C")
        let second = try h.tap(try inventoryTag(uid: 0x02, uri: "https://example.com/2"), on: "Desk C", at: .seconds(30))
        #expect(second.record.reader == "Desk C")
        #expect(second.record.sequence == 2)
        #expect(try h.stop().code == .readerSessionInvalidationErrorUserCanceled)
    }
}
