import Foundation
@testable import NFCTapKit
import NFCTapKitTestSupport
import RecordOutput
import Testing

/// The record file: formats, quoting, torn-write repair, refusals. No readers involved.
@Suite("inventory output file")
struct InventoryOutputTests {
    static let record = InventoryRecord(
        sequence: 7, time: Date(timeIntervalSince1970: 1_700_000_000.25), uid: "04102030405001", type: "type2",
        product: "NTAG213", reader: "Desk A", summary: "https://example.com/a", zebraSerial: nil,
        duplicate: true, error: nil)

    @Test("a JSON Lines record, byte for byte")
    func jsonLine() {
        #expect(InventoryFormat.jsonl.encode(Self.record) == """
            {"schemaVersion":1,"seq":7,"time":"2023-11-14T22:13:20.250Z","uid":"04102030405001","type":"type2","product":"NTAG213",\
            "reader":"Desk A","summary":"https://example.com/a","zebraSerial":null,"duplicate":true,"error":null}

            """)
    }

    @Test("a CSV header and row, byte for byte (CRLF, empty fields for absent values)")
    func csvRow() {
        #expect(InventoryFormat.csv.header == "seq,time,uid,type,product,reader,summary,zebraSerial,duplicate,error\r\n")
        #expect(InventoryFormat.csv.encode(Self.record)
                == "7,2023-11-14T22:13:20.250Z,04102030405001,type2,NTAG213,Desk A,https://example.com/a,,true,\r\n")
    }

    @Test("RFC 4180 field quoting", arguments: [
        ("plain", "plain"),
        ("", ""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("cr\r\nlf", "\"cr\r\nlf\""),
        (" padded", "\" padded\""),
        ("=1+2", "'=1+2"),   // OWASP CSV injection: neutralised
    ])
    func quoting(value: String, expected: String) {
        #expect(CSV.field(value) == expected)
    }

    @Test("a new CSV file gets the header once; reopening appends without a second header")
    func headerOnce() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.csv")
        do {
            let output = try InventoryOutput(path: path, format: .csv) { Issue.record("unexpected warning \($0)") }
            #expect(output.created)
            try output.append(InventoryFormat.csv.encode(Self.record))
        }
        do {
            let output = try InventoryOutput(path: path, format: .csv) { Issue.record("unexpected warning \($0)") }
            #expect(!output.created)
            try output.append(InventoryFormat.csv.encode(Self.record))
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == InventoryFormat.csv.header! + InventoryFormat.csv.encode(Self.record) + InventoryFormat.csv.encode(Self.record))
    }

    @Test("a JSON Lines file ending in a partial record: warned, cut off, then appended to")
    func repairJSONLines() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.jsonl")
        let good = InventoryFormat.jsonl.encode(Self.record)
        let torn = String(good.prefix(40))
        try (good + good + torn).write(toFile: path, atomically: false, encoding: .utf8)
        var warnings: [String] = []
        let output = try InventoryOutput(path: path, format: .jsonl) { warnings.append($0) }
        #expect(output.discardedBytes == 40)
        #expect(output.existingRecords == 2)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("partial record (40 bytes") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == good + good)
        try output.append(good)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == good + good + good)
    }

    @Test("a CSV file torn inside a quoted newline is cut back to its last whole row")
    func repairCSV() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.csv")
        var hostile = Self.record
        hostile.summary = "line one\r\nline \"two\", end"
        let row = InventoryFormat.csv.encode(hostile)
        let tornAt = row.range(of: "\r\n")!.upperBound  // just after the newline inside the quotes
        let torn = String(row[..<tornAt])
        try (InventoryFormat.csv.header! + row + torn).write(toFile: path, atomically: false, encoding: .utf8)
        var warnings: [String] = []
        let output = try InventoryOutput(path: path, format: .csv) { warnings.append($0) }
        #expect(warnings.count == 1)
        #expect(output.existingRecords == 1)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == InventoryFormat.csv.header! + row)
    }

    @Test("a CSV file holding only a torn header gets a whole header again")
    func tornHeader() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.csv")
        try "seq,time,ui".write(toFile: path, atomically: false, encoding: .utf8)
        var warnings: [String] = []
        _ = try InventoryOutput(path: path, format: .csv) { warnings.append($0) }
        #expect(warnings.count == 1)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == InventoryFormat.csv.header!)
    }

    @Test("a file that is not an inventory of that format is refused and left alone")
    func foreignFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("notes.csv")
        try "name,phone\r\nbob,123\r\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: InventoryOutputError.notOurs(path: path, format: "csv")) {
            try InventoryOutput(path: path, format: .csv) { _ in }
        }
        let jsonl = InventoryFormat.jsonl.encode(Self.record)
        try jsonl.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: InventoryOutputError.notOurs(path: path, format: "csv")) {
            try InventoryOutput(path: path, format: .csv) { _ in }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == jsonl)
    }

    @Test("an --output in a directory that does not exist is refused")
    func missingDirectory() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("missing/taps.jsonl")
        #expect(throws: InventoryOutputError.directoryMissing(path: path, directory: dir.path("missing"))) {
            try InventoryOutput(path: path, format: .jsonl) { _ in }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("missing")))
    }

    @Test("a failed write (disk full) throws with the errno; the file is cut back to its last record")
    func diskFull() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.jsonl")
        try InventoryOutput(path: path, format: .jsonl) { _ in }.append(InventoryFormat.jsonl.encode(Self.record))
        let output = try InventoryOutput(path: path, format: .jsonl, calls: .diskFull(afterWriting: 20)) { _ in }
        #expect(throws: InventoryOutputError.io(operation: "writing to", path: path, errno: ENOSPC)) {
            try output.append(InventoryFormat.jsonl.encode(Self.record))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == InventoryFormat.jsonl.encode(Self.record))
    }

    @Test("the format follows the file name unless given")
    func formatGuess() {
        #expect(InventoryFormat.guess(forPath: "taps.CSV") == .csv)
        #expect(InventoryFormat.guess(forPath: "taps.jsonl") == .jsonl)
        #expect(InventoryFormat.guess(forPath: nil) == .jsonl)
    }
}
