import Foundation
import Testing
@testable import Fleet

/// A private directory for one test, removed at the end.
final class TemporaryDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "fleet-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func write(_ name: String, _ text: String) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }
    func append(_ name: String, _ text: String) {
        let handle = FileHandle(forWritingAtPath: path + "/" + name)!
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        handle.closeFile()
    }
}

@Suite struct OutboxReaderTests {
    @Test func returnsCompleteLinesOnly() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("t.jsonl", "{\"a\":1}\n{\"b\":2}\n{\"c\":")
        let reader = try OutboxReader(path: file)
        let first = try #require(try reader.next())
        #expect(String(decoding: first.bytes, as: UTF8.self) == "{\"a\":1}" && first.end == 8)
        let second = try #require(try reader.next())
        #expect(String(decoding: second.bytes, as: UTF8.self) == "{\"b\":2}" && second.end == 16)
        #expect(try reader.next() == nil)
        dir.append("t.jsonl", "3}\n")
        let third = try #require(try reader.next())
        #expect(String(decoding: third.bytes, as: UTF8.self) == "{\"c\":3}")
    }

    @Test func partialLineRolledBackAndReplacedIsReadFresh() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("t.jsonl", "{\"a\":1}\n{\"torn")
        let reader = try OutboxReader(path: file)
        _ = try reader.next()
        #expect(try reader.next() == nil)
        // The writer cuts the torn record off and writes another.
        truncate(file, 8)
        dir.append("t.jsonl", "{\"b\":2}\n")
        let next = try #require(try reader.next())
        #expect(String(decoding: next.bytes, as: UTF8.self) == "{\"b\":2}")
    }

    @Test func rewindAndStartOffset() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("t.jsonl", "x\ny\nz\n")
        let reader = try OutboxReader(path: file, offset: 2)
        #expect(try reader.next().map { String(decoding: $0.bytes, as: UTF8.self) } == "y")
        reader.rewind(to: 0)
        #expect(try reader.next().map { String(decoding: $0.bytes, as: UTF8.self) } == "x")
    }

    @Test func backlogCountsAndAge() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("t.jsonl", "{\"seq\":1,\"time\":\"2026-01-01T00:00:00.500Z\"}\n{\"seq\":2}\n{\"seq\":3")
        let all = try Backlog.measure(path: file, from: 0)
        #expect(all.records == 2 && all.bytes == 54)
        #expect(all.oldestTime == Date(timeIntervalSince1970: 1_767_225_600.5))
        let rest = try Backlog.measure(path: file, from: 44)
        #expect(rest.records == 1 && rest.oldestTime == nil)
    }
}

@Suite struct OutboxPositionTests {
    @Test func savesAtomicallyAndLoads() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/t.jsonl.fleet-position"
        #expect(try OutboxPosition.load(path: path) == nil)
        var position = OutboxPosition(device: 1, inode: 2)
        try position.save(path: path)
        position.offset = 1234
        position.records = 10
        try position.save(path: path)
        #expect(try OutboxPosition.load(path: path) == position)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func refusesForeignFiles() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("p", "{\"offset\": 3}")
        #expect(throws: FleetError.self) { try OutboxPosition.load(path: path) }
        let bad = dir.write("q", "{\"fileID\":\"../etc\",\"device\":1,\"inode\":2,\"offset\":0,\"records\":0}")
        #expect(throws: FleetError.self) { try OutboxPosition.load(path: bad) }
        // Numbers a crafted file could use to overflow the record counter.
        for fields in ["\"offset\":18446744073709551615,\"records\":18446744073709551615", "\"offset\":10,\"records\":11"] {
            let crafted = dir.write("r", "{\"fileID\":\"ab-12\",\"device\":1,\"inode\":2,\(fields)}")
            #expect(throws: FleetError.self) { try OutboxPosition.load(path: crafted) }
        }
    }
}

@Suite struct RecordIDTests {
    @Test func idIsStable() {
        let a = RecordID.make(stationID: "m", fileID: "f", sequence: 7)
        #expect(a == "m-f-7" && a == RecordID.make(stationID: "m", fileID: "f", sequence: 7))
        #expect(a != RecordID.make(stationID: "m", fileID: "f", sequence: 8))
    }

    @Test func clientIDStablePerStationAndFile() {
        let one = StationIdentity.clientID(stationID: "abc", outboxPath: "/var/lib/nfctap/taps.jsonl")
        #expect(one == StationIdentity.clientID(stationID: "abc", outboxPath: "/var/lib/nfctap/taps.jsonl"))
        #expect(one.count == 23 && one.hasPrefix("nfctap-"))
        #expect(one != StationIdentity.clientID(stationID: "abd", outboxPath: "/var/lib/nfctap/taps.jsonl"))
        #expect(one != StationIdentity.clientID(stationID: "abc", outboxPath: "/var/lib/nfctap/other.jsonl"))
    }

    @Test func payloadIsTheRecordWithItsID() throws {
        let line = Array("{\"seq\":3,\"uid\":\"04AB\"}".utf8)[...]
        let payload = RecordID.payload(record: line, id: "m-f-3")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(object["recordId"] as? String == "m-f-3" && object["seq"] as? Int == 3 && object["uid"] as? String == "04AB")
        #expect(String(decoding: RecordID.payload(record: Array("{}".utf8)[...], id: "x"), as: UTF8.self) == "{\"recordId\":\"x\"}")
    }

    @Test func nonObjectLineIsWrappedNotDropped() throws {
        let payload = RecordID.payload(record: Array("seq,uid\u{1}".utf8)[...], id: "i")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(object["recordId"] as? String == "i" && object["invalidRecord"] as? String == "seq,uid\u{1}")
    }
}

/// The record's own bytes go out with `"recordId"` put first inside its object; anything
/// JSONSerialization does not read as one object is wrapped, so every payload parses.
@Suite struct RecordPayloadTests {
    static let objects = [
        "{}", " { } ", "{\"a\":1}", "{\"a\":[1,2,{\"b\":null}],\"c\":true,\"d\":false}",
        "{\"n\":-0.5e+10,\"m\":0,\"o\":1E-2,\"p\":123456789012}", "{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}",
        "{\"pair\":\"\\ud83d\\ude00\"}", "{\"utf8\":\"é☃😀\"}", "{\"a\":1,\"a\":2}",
        "{\"seq\":1,\"time\":\"2026-11-25T03:00:00.000Z\",\"uid\":\"04A1B2C3D4E5\",\"summary\":\"https://example.com/a\"}",
    ]
    static let notObjects = [
        "", "[]", "1", "\"x\"", "{", "}", "{\"a\"}", "{\"a\":}", "{,}", "{a:1}", "{'a':1}",
        "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":+1}", "{\"a\":tru}", "{\"a\":True}",
        "{\"a\":\"\u{1}\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"open}", "{\"a\":1}x", "{\"a\":NaN}",
    ]

    @Test("every payload is one JSON object carrying the record id; objects keep their bytes")
    func payloadsParse() throws {
        for text in Self.objects + Self.notObjects {
            let payload = RecordID.payload(record: Array(text.utf8)[...], id: "s-f-1")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any], "\(text)")
            #expect(object["recordId"] as? String == "s-f-1")
            if Self.objects.contains(text) {
                #expect(object["invalidRecord"] == nil, "\(text)")
                let inner = text.trimmingCharacters(in: .whitespaces).dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                #expect(String(decoding: payload, as: UTF8.self) == "{\"recordId\":\"s-f-1\"" + (inner.isEmpty ? "" : ",") + inner + "}")
            } else {
                #expect(object["invalidRecord"] as? String == text, "\(text)")
            }
        }
    }

    @Test("bytes that are not UTF-8 and deep nesting are wrapped, never a crash")
    func hostileLines() throws {
        let deep = "{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        for line in [[0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D], Array(deep.utf8)] as [[UInt8]] {
            let payload = RecordID.payload(record: line[...], id: "i")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
            #expect(object["recordId"] as? String == "i" && object["invalidRecord"] != nil)
        }
    }
}
