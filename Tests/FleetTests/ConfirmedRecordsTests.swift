import Foundation
import RecordOutput
import Synchronization
import Testing
@testable import Fleet

/// The writer confirms a record only once `fdatasync` succeeded; the forwarder's reader must never
/// see one before that, and never one the writer cut back (EIO or ENOSPC from the sync).
@Suite struct ConfirmedRecordsTests {
    static let format = RecordFileFormat.jsonLines(requiringAnyOf: [["seq"]], firstKeys: ["seq"])

    @Test("while a record is written and synced the reader sees nothing of it; a failed sync leaves nothing to publish",
          arguments: [EIO, ENOSPC])
    func readerOnlySeesConfirmedRecords(code: Int32) throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/taps.jsonl"
        let reader = Mutex<OutboxReader?>(nil)
        let seenDuringSync = Mutex<[String?]>([])
        let failNext = Mutex(false)
        let calls = FileCalls(
            write: { Glibc.write($0, $1, $2) },
            sync: { fd in
                // The record is in the file now; what does the forwarder's reader see?
                let seen = reader.withLock { r in (try? r?.next()).flatMap { $0 }.map { String(decoding: $0.bytes, as: UTF8.self) } }
                seenDuringSync.withLock { $0.append(seen) }
                if failNext.withLock({ $0 }) { errno = code; return -1 }
                return fdatasync(fd)
            },
            truncate: { ftruncate($0, $1) })
        let writer = try DurableRecordFile(path: path, format: Self.format, calls: calls)
        reader.withLock { $0 = try? OutboxReader(path: path) }
        try writer.append("{\"seq\":1,\"uid\":\"A\"}\n")
        #expect(reader.withLock { r in (try? r?.next())??.bytes.count } == 19, "confirmed: readable")
        failNext.withLock { $0 = true }
        #expect(throws: RecordFileError.self) { try writer.append("{\"seq\":2,\"uid\":\"NEVER\"}\n") }
        failNext.withLock { $0 = false }
        #expect(reader.withLock { r in try? r?.next() } == nil, "the cut record is gone")
        try writer.append("{\"seq\":2,\"uid\":\"B\"}\n")
        let next = reader.withLock { r in (try? r?.next()).flatMap { $0 }.map { String(decoding: $0.bytes, as: UTF8.self) } }
        #expect(next == "{\"seq\":2,\"uid\":\"B\"}")
        // Four syncs: three appends and the cut-back of the failed one.
        #expect(seenDuringSync.withLock { $0 } == [nil, nil, nil, nil], "nothing readable while its sync was running")
        #expect(reader.withLock { $0?.writerHoldsFile } == true)
        writer.close()
        #expect(reader.withLock { $0?.writerHoldsFile } == false)
    }

    @Test("closing another descriptor of the file in the writer's process keeps the writer's lock")
    func readerClosingKeepsTheWriterLock() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/taps.jsonl"
        let writer = try DurableRecordFile(path: path, format: Self.format)
        defer { writer.close() }
        do { _ = try Backlog.measure(path: path, from: 0) }  // opens and closes the file
        #expect(throws: RecordFileError.self) { try DurableRecordFile(path: path, format: Self.format) }
    }
}
