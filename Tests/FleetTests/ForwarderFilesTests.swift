import Foundation
import Testing
@testable import Fleet
import TestSupport

/// Every path the forwarder opens, with something planted there that is not its own regular file,
/// and two forwarders on one file. Nothing here may hang: FIFOs are opened without blocking.
@Suite struct ForwarderFilesTests {
    static func configuration(_ file: String) -> ForwarderConfiguration {
        var configuration = ForwarderConfiguration(
            outboxPath: file, url: PublishURL(secure: false, host: "127.0.0.1", port: ForwarderOfflineTests.closedPort(), topic: "t/taps"),
            stationID: String(repeating: "0", count: 32))
        configuration.retryMin = .milliseconds(50)
        return configuration
    }

    /// Runs a forwarder for `seconds` and returns what it logged.
    static func run(_ file: String, seconds: Double = 0.6) throws -> String {
        let forwarder = Forwarder(configuration: configuration(file))
        let logged = Locked<[String]>([])
        forwarder.onLog = { _, message in logged.append(message) }
        try forwarder.start()
        usleep(UInt32(seconds * 1_000_000))
        forwarder.stop()
        return logged.current.joined(separator: "\n")
    }

    @Test("the outbox as a symbolic link to a readable secret: refused, never read")
    func outboxSymlinkRefused() throws {
        let dir = TemporaryDirectory()
        let secret = dir.write("secret.conf", "{\"password\":\"hunter2\"}\n")
        let file = dir.path + "/taps.jsonl"
        symlink(secret, file)
        #expect(throws: FleetError.notOwnFile(path: file, kind: "a symbolic link")) { try OutboxReader(path: file) }
        let log = try Self.run(file)
        #expect(log.contains("is a symbolic link"), "\(log)")
        #expect(throws: (any Error).self) { try Backlog.measure(path: file, from: 0) }
        #expect(try OutboxPosition.load(path: file + ".fleet-position") == nil, "nothing adopted")
    }

    @Test("the outbox as a FIFO: refused at once, no hang")
    func outboxFIFORefused() throws {
        let dir = TemporaryDirectory()
        let file = dir.path + "/taps.jsonl"
        mkfifo(file, 0o600)
        #expect(throws: FleetError.notOwnFile(path: file, kind: "a FIFO (named pipe)")) { try OutboxReader(path: file) }
        #expect(try Self.run(file).contains("FIFO"))
    }

    @Test("the position file as a symbolic link or a FIFO: refused, the target untouched", arguments: ["symlink", "fifo"])
    func positionFileRefused(kind: String) throws {
        let dir = TemporaryDirectory()
        let file = dir.write("taps.jsonl", "{\"seq\":1}\n")
        let target = dir.write("target", "keep me\n")
        let position = file + ".fleet-position"
        if kind == "symlink" { symlink(target, position) } else { mkfifo(position, 0o600) }
        #expect(throws: FleetError.self) { try OutboxPosition.load(path: position) }
        #expect(throws: FleetError.self) { try OutboxPosition(device: 1, inode: 2).save(path: position) }
        let log = try Self.run(file)
        #expect(log.contains("not a regular file"), "\(log)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        #expect(SafeFile.lstatKind(position) == (kind == "symlink" ? S_IFLNK : S_IFIFO), "left as it was")
    }

    @Test("<position>.tmp as a symbolic link or a FIFO: its target is never written, nothing blocks", arguments: ["symlink", "fifo"])
    func temporaryPositionRefused(kind: String) throws {
        let dir = TemporaryDirectory()
        let target = dir.write("target", "keep me\n")
        let position = dir.path + "/taps.jsonl.fleet-position"
        if kind == "symlink" { symlink(target, position + ".tmp") } else { mkfifo(position + ".tmp", 0o600) }
        #expect(throws: FleetError.notOwnFile(path: position + ".tmp", kind: kind == "symlink" ? "a symbolic link" : "a FIFO (named pipe)")) {
            try OutboxPosition(device: 1, inode: 2).save(path: position)
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        // A stale regular .tmp of ours (a crash between write and rename) is replaced.
        unlink(position + ".tmp")
        _ = dir.write("taps.jsonl.fleet-position.tmp", "{half")
        try OutboxPosition(device: 1, inode: 2).save(path: position)
        #expect(try OutboxPosition.load(path: position)?.inode == 2)
    }

    @Test("the lock file as a symbolic link or a FIFO: the forwarder does not start", arguments: ["symlink", "fifo"])
    func lockFileRefused(kind: String) throws {
        let dir = TemporaryDirectory()
        let file = dir.write("taps.jsonl", "{\"seq\":1}\n")
        let target = dir.write("target", "keep me\n")
        if kind == "symlink" { symlink(target, file + ".fleet-lock") } else { mkfifo(file + ".fleet-lock", 0o600) }
        #expect(throws: FleetError.self) { try Forwarder(configuration: Self.configuration(file)).start() }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
    }

    @Test("two forwarders on one file: the second is refused, naming the first's PID")
    func oneForwarderPerFile() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("taps.jsonl", "{\"seq\":1}\n")
        let first = Forwarder(configuration: Self.configuration(file))
        try first.start()
        defer { first.stop() }
        #expect(throws: FleetError.locked(path: file, pid: getpid())) { try Forwarder(configuration: Self.configuration(file)).start() }
        #expect(FleetError.locked(path: file, pid: 12).description.contains("already published by process 12"))
        // Another file is fine.
        let other = Forwarder(configuration: Self.configuration(dir.write("other.jsonl", "")))
        try other.start()
        other.stop()
    }

    @Test("a line over 1 MiB is skipped whole, never in pieces; the records around it keep their numbers")
    func oversizedLineSkippedWhole() throws {
        let dir = TemporaryDirectory()
        let big = "{\"seq\":2,\"blob\":\"" + String(repeating: "A", count: OutboxReader.maxRecordBytes + 5000) + "\"}"
        let file = dir.write("taps.jsonl", "{\"seq\":1}\n" + big + "\n{\"seq\":3}\n")
        let reader = try OutboxReader(path: file)
        let one = try #require(try reader.next())
        #expect(String(decoding: one.bytes, as: UTF8.self) == "{\"seq\":1}")
        let two = try #require(try reader.next())
        #expect(two.bytes.count == 0)
        #expect(two.oversizedLength == UInt64(big.utf8.count))
        #expect(two.end == UInt64(10 + big.utf8.count + 1))
        let three = try #require(try reader.next())
        #expect(String(decoding: three.bytes, as: UTF8.self) == "{\"seq\":3}" && three.oversizedLength == nil)
        #expect(try reader.next() == nil)
        let payload = String(decoding: RecordID.oversizedPayload(id: "s-f-2", length: 5), as: UTF8.self)
        #expect(payload == "{\"recordId\":\"s-f-2\",\"oversizedRecord\":5}")
        // Still being written (no newline yet): nothing, and the next look starts at its beginning.
        let open = dir.write("open.jsonl", "{\"seq\":1}\n" + big)
        let partial = try OutboxReader(path: open)
        _ = try partial.next()
        #expect(try partial.next() == nil && partial.offset == 10)
        dir.append("open.jsonl", "\n")
        #expect(try partial.next()?.oversizedLength == UInt64(big.utf8.count))
    }

    @Test("rotated files: only plain regular files beside the outbox, oldest last write first; links, FIFOs, hard links and our own files never")
    func rotatedCandidates() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("taps.jsonl", "")
        let older = dir.write("taps.jsonl.2", "{\"seq\":1}\n")
        usleep(20_000)
        let newer = dir.write("taps.jsonl-20261127", "{\"seq\":2}\n")
        let secret = dir.write("secret", "password\n")
        symlink(secret, file + ".3")
        mkfifo(file + ".4", 0o600)
        link(secret, file + ".5")  // a hard link planted to another file
        _ = dir.write("taps.jsonl.6.gz", "compressed")
        _ = dir.write("taps.jsonl.fleet-position", "{}")
        _ = dir.write("taps.jsonlx", "not a rotation name")
        let found = RotatedFiles(outboxPath: file).candidates().map(\.path)
        #expect(found == [older, newer], "\(found)")
    }

    @Test("two rotations within one clock tick (equal file times): the chain is walked .2 → .1 → the new file, never back")
    func rotationsWithEqualTimes() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("taps.jsonl", "{\"seq\":14}\n")
        let oldest = dir.write("taps.jsonl.2", "{\"seq\":1}\n")
        let middle = dir.write("taps.jsonl.1", "{\"seq\":9}\n")
        // File times are coarse (a jiffy): give both rotated files the same one.
        var times = [timespec(tv_sec: 1_800_000_000, tv_nsec: 0), timespec(tv_sec: 1_800_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, oldest, &times, 0) == 0 && utimensat(AT_FDCWD, middle, &times, 0) == 0)
        let rotated = RotatedFiles(outboxPath: file)
        #expect(rotated.candidates().map(\.path) == [oldest, middle])
        var st = stat()
        #expect(stat(file, &st) == 0)
        let current = UInt64(st.st_ino)
        let all = rotated.candidates()
        let afterOldest = rotated.successors(after: all[0].modified, except: all[0].inode, currentInode: current)
        #expect(afterOldest.map(\.path) == [middle])
        let afterMiddle = rotated.successors(after: all[1].modified, except: all[1].inode, currentInode: current)
        #expect(afterMiddle.isEmpty, "after .1 comes the file at the path, not .2 again: \(afterMiddle.map(\.path))")
    }

    @Test("the lock file as a hard link to another file: refused, the file not truncated")
    func lockFileHardLinkRefused() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("taps.jsonl", "{\"seq\":1}\n")
        let victim = dir.write("victim", "keep me\n")
        link(victim, file + ".fleet-lock")
        #expect(throws: FleetError.notOwnFile(path: file + ".fleet-lock", kind: "a hard link to another file")) {
            try Forwarder(configuration: Self.configuration(file)).start()
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
    }
}

extension ForwarderFilesTests {
    @Test("a new file that got the published file's inode number is not taken for it")
    func inodeReuseDetected() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("taps.jsonl", "{\"seq\":1,\"uid\":\"OLD\"}\n{\"seq\":2}\n")
        let reader = try OutboxReader(path: file)
        var position = OutboxPosition(device: reader.device, inode: reader.inode, offset: 22, records: 1)
        position.head = reader.head(within: 22)
        try position.save(path: file + ".fleet-position")
        // The same inode, other bytes (as when the old file was deleted and its inode reused).
        let fd = open(file, O_WRONLY | O_TRUNC)
        _ = "{\"seq\":1,\"uid\":\"NEW\"}\n{\"seq\":2}\n{\"seq\":3}\n".utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        #expect(reader.head(within: 22) != position.head)
        let log = try Self.run(file)
        #expect(log.contains("not its first record (a new file)"), "\(log)")
        let now = try #require(try OutboxPosition.load(path: file + ".fleet-position"))
        #expect(now.offset == 0 && now.fileID != position.fileID, "published again from its start, with a new file id")
    }
}
