import Foundation
import NFCTapKitTestSupport
import RecordOutput
import Testing
import TestSupport

/// Ring 3: a record file rotated while the broker is out of reach (1 and 2 rotations, with and
/// without a forwarder restart in between), and a record whose sync fails: what reaches the real
/// broker is every confirmed record, in order, one id each, and nothing else (docs/fleet.md).
@Suite(.serialized, .enabled(if: SystemEnvironment.available("mosquitto"), "needs the test broker (scripts/test.sh starts it)"))
struct FleetRotationTests {
    let dir = NSTemporaryDirectory() + "fleet-rotation-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func topic(_ name: String) -> String { "nfctap/test-\(UUID().uuidString.prefix(8))/\(name)/taps" }

    /// A writer that keeps its descriptor (as inventory does until it reopens), records `{"seq": n}`.
    final class Writer {
        private(set) var fd: Int32
        init(_ path: String) { fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640) }
        deinit { close(fd) }
        func append(_ seqs: ClosedRange<Int>) {
            for seq in seqs {
                let line = "{\"seq\":\(seq),\"uid\":\"04A1B2C3D4E5\(String(format: "%02X", seq % 256))\"}\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
                _ = fdatasync(fd)
            }
        }
        /// SIGHUP: the path again (a new file when it was renamed away).
        func reopen(_ path: String) {
            close(fd)
            fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        }
    }

    /// On a loaded machine mosquitto_sub may subscribe late: a probe message shows it is there.
    static func waitSubscribed(_ consumer: LineProcess, topic: String) throws {
        let arrived = LineProcess.waitUntil(30) {
            _ = try? LineProcess("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", topic, "-q", "1", "-m", "{\"probe\":true}"])
                .waitForExit()
            return LineProcess.waitUntil(1) { consumer.lines.contains { $0.contains("probe") } }
        }
        #expect(arrived, "the consumer subscribed")
    }

    func forward(_ file: String, through link: LinkProxy, topic: String) throws -> LineProcess {
        try startForward(file: file, url: "mqtt://127.0.0.1:\(link.port)/\(topic)", extra: ["--ack-timeout", "1", "--retry-max", "0.3"])
    }

    @Test("rotations during an outage: logrotate create (1 and 2 rotations), mv + reopen; with and without a restart",
          arguments: [(1, false), (2, false), (1, true), (2, true)])
    func rotatedDuringOutage(rotations: Int, restart: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("rot\(rotations)\(restart ? "r" : "")")
        let file = dir + "/taps.jsonl"
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        try Self.waitSubscribed(consumer, topic: topic)
        let link = try LinkProxy(to: UInt16(TestBroker.port) ?? 1883)
        defer { link.stop() }
        let writer = Writer(file)
        writer.append(1...3)
        var forwarder = try forward(file, through: link, topic: topic)
        defer { forwarder.stop() }
        #expect(LineProcess.waitUntil(20) { Delivery(consumer.lines.filter { !$0.contains("probe") }).complete(3) }, "\(forwarder.stderr)")
        usleep(400_000)  // the position (every 200 ms) is past record 3

        link.cut(refusingFor: 600)  // the outage: until the test ends it
        writer.append(4...6)
        var next = 7
        for rotation in 1...rotations {
            // logrotate: older rotated files move up, the file becomes .1, a new one is created.
            if rotation == 2 { #expect(rename(file + ".1", file + ".2") == 0) }
            #expect(rename(file, file + ".1") == 0)
            close(open(file, O_WRONLY | O_CREAT | O_EXCL, 0o640))  // `create`
            writer.append(next...next + 1)  // the writer has not reopened yet: the old file grows
            writer.reopen(file)  // SIGHUP
            writer.append(next + 2...next + 4)
            next += 5
            if restart, rotation == 1 {
                usleep(300_000)
                forwarder.kill9()
                forwarder = try forward(file, through: link, topic: topic)
            }
        }
        let total = next - 1
        usleep(1_500_000)  // the forwarder sees the rotations while the broker is unreachable
        link.cut(refusingFor: 0)  // the outage ends
        #expect(LineProcess.waitUntil(30) { Delivery(consumer.lines.filter { !$0.contains("probe") }).complete(total) },
                "\(Delivery(consumer.lines.filter { !$0.contains("probe") }).firstSeen) of \(total); forwarder: \(forwarder.stderr.suffix(3000))")
        Delivery(consumer.lines.filter { !$0.contains("probe") }).verify(total)
        print("fleet rotation: \(rotations) rotation(s), restart \(restart): \(total) records, \(Delivery(consumer.lines.filter { !$0.contains("probe") }).duplicates) repeats (same ids)")
    }

    @Test("a record whose fdatasync fails (EIO, ENOSPC) is never published; the next one is, under its own id",
          arguments: [EIO, ENOSPC])
    func failedSyncNeverPublished(code: Int32) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("eio")
        let file = dir + "/taps.jsonl"
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        try Self.waitSubscribed(consumer, topic: topic)
        let taps = { consumer.lines.filter { !$0.contains("probe") } }
        let failing = Locked(false)
        // The sync waits long enough for a forwarder that reads unconfirmed bytes to publish them.
        let calls = FileCalls(write: { Glibc.write($0, $1, $2) },
                              sync: { fd in
                                  guard failing.current else { return fdatasync(fd) }
                                  usleep(1_500_000)
                                  errno = code
                                  return -1
                              },
                              truncate: { ftruncate($0, $1) })
        let format = RecordFileFormat.jsonLines(requiringAnyOf: [["seq"]], firstKeys: ["seq"])
        let writer = try DurableRecordFile(path: file, format: format, calls: calls)
        defer { writer.close() }
        try writer.append("{\"seq\":1,\"uid\":\"AA\"}\n")
        let forward = try startForward(file: file, url: "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)")
        defer { forward.stop() }
        #expect(LineProcess.waitUntil(20) { taps().count >= 1 }, "\(forward.stderr)")
        failing.withLock { $0 = true }
        #expect(throws: RecordFileError.self) { try writer.append("{\"seq\":2,\"uid\":\"NEVER\"}\n") }
        failing.withLock { $0 = false }
        try writer.append("{\"seq\":2,\"uid\":\"BB\"}\n")
        #expect(LineProcess.waitUntil(20) { taps().count >= 2 }, "\(forward.stderr)")
        usleep(500_000)
        #expect(!taps().joined().contains("NEVER"), "an unconfirmed record reached the broker: \(taps())")
        let objects = taps().compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0["uid"] as? String } == ["AA", "BB"])
        let ids = objects.compactMap { $0["recordId"] as? String }
        #expect(Set(ids).count == 2 && ids.last?.hasSuffix("-2") == true, "\(ids)")
    }
}
