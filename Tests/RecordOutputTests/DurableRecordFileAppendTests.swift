import Foundation
@testable import RecordOutput
import Testing

/// Appending: a failed write or sync leaves the file at its last whole record; a deleted or
/// renamed file is followed to the path; `reopen()` is logrotate's SIGHUP.
@Suite("durable record file: appending")
struct DurableRecordFileAppendTests {
    @Test("disk full mid-record (ENOSPC after a short write): error thrown, file cut back, next record whole",
          arguments: [ENOSPC, EIO, EFBIG])
    func writeFails(code: Int32) throws {
        let dir = try TempDirectory()
        let path = dir.path("taps.jsonl")
        let failing = FailingCalls()
        let file = try DurableRecordFile(path: path, format: Fixture.jsonl, calls: failing.calls)
        try file.append(Fixture.line(1))
        failing.failNextWrite(errno: code, afterWriting: 7)
        #expect(throws: RecordFileError.io(operation: "writing to", path: path, errno: code)) {
            try file.append(Fixture.line(2))
        }
        #expect(Fixture.text(path) == Fixture.line(1))
        try file.append(Fixture.line(3))
        #expect(Fixture.text(path) == Fixture.line(1) + Fixture.line(3))
        // And the file is still recognised as ours by the next run.
        file.close()
        let again = try DurableRecordFile(path: path, format: Fixture.jsonl) { Issue.record("unexpected warning \($0)") }
        #expect(again.existingRecords == 2)
    }

    @Test("a sync that fails (EIO) rolls the whole record back")
    func syncFails() throws {
        let dir = try TempDirectory()
        let path = dir.path("taps.jsonl")
        let failing = FailingCalls()
        let file = try DurableRecordFile(path: path, format: Fixture.jsonl, calls: failing.calls)
        try file.append(Fixture.line(1))
        failing.failNextSync(errno: EIO)
        #expect(throws: RecordFileError.io(operation: "syncing", path: path, errno: EIO)) {
            try file.append(Fixture.line(2))
        }
        #expect(Fixture.text(path) == Fixture.line(1))
    }

    @Test("the output deleted while open: the next record goes to a new file at the path, with a warning")
    func deleted() throws {
        let dir = try TempDirectory()
        let path = dir.path("taps.csv")
        var warnings: [String] = []
        let file = try DurableRecordFile(path: path, format: Fixture.csv) { warnings.append($0) }
        try file.append("1,a\r\n")
        try FileManager.default.removeItem(atPath: path)
        try file.append("2,b\r\n")
        #expect(Fixture.text(path) == Fixture.csvHeader + "2,b\r\n")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("deleted or moved away") == true)
    }

    @Test("the output renamed (logrotate without SIGHUP): the old file keeps its records, new ones go to the path")
    func renamed() throws {
        let dir = try TempDirectory()
        let path = dir.path("taps.jsonl")
        let file = try DurableRecordFile(path: path, format: Fixture.jsonl)
        try file.append(Fixture.line(1))
        #expect(rename(path, dir.path("taps.jsonl.1")) == 0)
        try file.append(Fixture.line(2))
        #expect(Fixture.text(dir.path("taps.jsonl.1")) == Fixture.line(1))
        #expect(Fixture.text(path) == Fixture.line(2))
    }

    @Test("the path replaced by a symbolic link while open: the append is refused, nothing written through it")
    func replacedBySymlink() throws {
        let dir = try TempDirectory()
        let path = dir.path("taps.jsonl")
        let file = try DurableRecordFile(path: path, format: Fixture.jsonl)
        try file.append(Fixture.line(1))
        let target = dir.path("precious")
        try "keep".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(throws: RecordFileError.symlink(path: path)) { try file.append(Fixture.line(2)) }
        #expect(Fixture.text(target) == "keep")
    }

    @Test("reopen() (SIGHUP): after a rename it starts a new file; with nothing moved it keeps the same one")
    func reopen() throws {
        let dir = try TempDirectory()
        let path = dir.path("taps.jsonl")
        let file = try DurableRecordFile(path: path, format: Fixture.jsonl)
        try file.append(Fixture.line(1))
        try file.reopen()
        try file.append(Fixture.line(2))
        #expect(Fixture.text(path) == Fixture.line(1) + Fixture.line(2))
        #expect(rename(path, dir.path("old.jsonl")) == 0)
        try file.reopen()
        #expect(FileManager.default.fileExists(atPath: path))
        try file.append(Fixture.line(3))
        #expect(Fixture.text(dir.path("old.jsonl")) == Fixture.line(1) + Fixture.line(2))
        #expect(Fixture.text(path) == Fixture.line(3))
    }

    @Test("the lock survives a reopen of the same file (another process is still refused)")
    func lockKeptAcrossReopen() throws {
        let dir = try TempDirectory()
        let path = dir.path("taps.jsonl")
        let file = try DurableRecordFile(path: path, format: Fixture.jsonl)
        try file.reopen()
        try file.append(Fixture.line(1))
        // A second process trying the lock must fail: python exits 1 when lockf raises.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import fcntl,sys\nf=open(sys.argv[1],'a')\ntry:\n fcntl.lockf(f, fcntl.LOCK_EX|fcntl.LOCK_NB)\nexcept OSError:\n sys.exit(7)\n", path]
        try probe.run()
        probe.waitUntilExit()
        #expect(probe.terminationStatus == 7)
        withExtendedLifetime(file) {}
    }
}
