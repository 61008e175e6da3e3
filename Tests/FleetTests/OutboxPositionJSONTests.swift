import Foundation
import Testing
@testable import Fleet

/// The position file (`OutboxPosition.jsonBytes`, the project's JSON writer) reads back by `load`
/// unchanged, and so does one written by `JSONEncoder` (the files of earlier versions).
@Suite struct OutboxPositionJSONTests {
    static let positions: [OutboxPosition] = {
        var all: [OutboxPosition] = []
        all.append(OutboxPosition(fileID: "6f1c2d3e-0000-4a1b-9c2d-3e4f5a6b7c8d", device: 64768, inode: 16302167))
        var full = OutboxPosition(fileID: "ab-12", device: .max, inode: 0, offset: 1 << 52, records: 123_456_789,
                                  modified: 1_764_244_969.123456)
        full.head = "cbf29ce484222325:256"
        all.append(full)
        for modified in [0.0, 1_764_244_969, 1_764_244_969.5, 0.1, 1e-7, 1e21, 1.2345678901234568e17, -3.25] {
            var position = OutboxPosition(fileID: "f", device: 1, inode: 2, offset: 10, records: 3, modified: modified)
            position.head = "1:1"
            all.append(position)
        }
        return all
    }()

    @Test(arguments: positions)
    func savedPositionLoadsEqual(_ position: OutboxPosition) throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/t.jsonl.fleet-position"
        try position.save(path: path)
        #expect(try OutboxPosition.load(path: path) == position)
    }

    @Test(arguments: positions)
    func aFileOfJSONEncoderLoadsEqual(_ position: OutboxPosition) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let dir = TemporaryDirectory()
        let path = dir.path + "/t.jsonl.fleet-position"
        try encoder.encode(position).write(to: URL(fileURLWithPath: path))
        #expect(try OutboxPosition.load(path: path) == position)
    }

    @Test func absentOptionalsAreLeftOut() {
        let text = String(decoding: OutboxPosition(fileID: "a", device: 1, inode: 2).jsonBytes, as: UTF8.self)
        #expect(text == #"{"device":1,"fileID":"a","inode":2,"offset":0,"records":0}"#)
    }
}
