import Foundation
import Testing

/// Ring 3: the forwarder against a real broker (scripts/services/mosquitto.sh), with the broker
/// restarted, frozen and taken away, and the station killed (docs/fleet.md).
@Suite(.serialized, .enabled(if: SystemEnvironment.available("mosquitto"), "needs the test broker (scripts/test.sh starts it)"))
struct FleetSystemTests {
    let dir = NSTemporaryDirectory() + "fleet-system-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func topic(_ name: String) -> String { "nfctap/test-\(UUID().uuidString.prefix(8))/\(name)/taps" }

    func url(_ topic: String) -> String { "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)" }

    @Test("1,000 records through broker restarts, freezes and link cuts: all arrive, in order, one id each")
    func thousandRecordsThroughChaos() throws {
        defer { TestBroker.ctl("start"); try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("chaos")
        let file = dir + "/taps.jsonl"
        let appender = RecordAppender(path: file)
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        // The station reaches the broker through a relay the test cuts; the consumer directly.
        let link = try LinkProxy(to: UInt16(TestBroker.port) ?? 1883)
        defer { link.stop() }
        let forward = try startForward(file: file, url: "mqtt://127.0.0.1:\(link.port)/\(topic)",
                                       extra: ["--ack-timeout", "1", "--retry-max", "0.5"])
        defer { forward.stop() }

        var generator = SystemRandomNumberGenerator()
        var events: [String] = []
        while appender.written < 1000 {
            appender.append(count: Int.random(in: 1...40, using: &generator))
            usleep(UInt32.random(in: 5_000...60_000, using: &generator))
            switch Int.random(in: 0..<12, using: &generator) {
            case 2:  // network cut: every connection through the relay closed, new ones refused a while
                link.cut(refusingFor: Double.random(in: 0...1.5, using: &generator))
                appender.append(count: Int.random(in: 1...30, using: &generator))
                events.append("cut@\(appender.written)")
            case 0:  // broker restart (SIGTERM saves its persistence: queued messages survive)
                TestBroker.ctl("stop")
                appender.append(count: Int.random(in: 1...30, using: &generator))
                usleep(UInt32.random(in: 100_000...800_000, using: &generator))
                TestBroker.ctl("start")
                events.append("restart@\(appender.written)")
            case 1:  // link frozen longer than the ack timeout: the forwarder drops and reconnects
                TestBroker.ctl("pause")
                appender.append(count: Int.random(in: 1...30, using: &generator))
                usleep(UInt32.random(in: 200_000...1_800_000, using: &generator))
                TestBroker.ctl("resume")
                events.append("freeze@\(appender.written)")
            default:
                break
            }
        }
        let arrived = LineProcess.waitUntil(90) {
            consumer.lines.count >= appender.written && Delivery(consumer.lines).complete(appender.written)
        }
        let delivery = Delivery(consumer.lines)
        #expect(arrived, "chaos: \(events.joined(separator: " ")); forwarder: \(forward.stderr.suffix(2000))")
        delivery.verify(appender.written)
        #expect(events.count >= 2, "the run should have restarted or frozen the broker: \(events)")
        // The position file catches up with the file.
        let status = try runCLI(["fleet", "status", file, "--json"])
        #expect(LineProcess.waitUntil(10) {
            (try? runCLI(["fleet", "status", file, "--json"]).stdout.contains("\"backlogRecords\":0")) ?? false
        }, "\(status.stdout)")
        print("fleet chaos: \(appender.written) records, \(delivery.duplicates) repeats (same ids), events: \(events.joined(separator: " "))")
    }

    @Test("A station killed with SIGKILL mid-backlog (20,000 records) resumes from the last acknowledged record")
    func sigkillMidBacklogResumes() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("killed")
        let file = dir + "/taps.jsonl"
        let appender = RecordAppender(path: file)
        appender.append(count: 20_000, sync: false)
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        let first = try startForward(file: file, url: url(topic))
        // Killed once the position file shows some records acknowledged (it is saved every 200 ms).
        func acknowledged() -> Int {
            guard let data = FileManager.default.contents(atPath: file + ".fleet-position"),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return 0 }
            return object["records"] as? Int ?? 0
        }
        #expect(LineProcess.waitUntil(30) { acknowledged() > 0 })
        first.kill9()
        let status = try runCLI(["fleet", "status", file, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let backlog = object?["backlogRecords"] as? Int ?? -1
        #expect(backlog > 0 && backlog < 20_000, "killed mid-backlog: \(status.stdout)")
        appender.append(count: 100)
        let second = try startForward(file: file, url: url(topic))
        defer { second.stop() }
        #expect(LineProcess.waitUntil(90) { consumer.lines.count >= 20_100 && Delivery(consumer.lines).complete(20_100) },
                "\(second.stderr.suffix(1000))")
        Delivery(consumer.lines).verify(20_100)
    }

    @Test("A rotated record file: the old one is finished, the new one published from its start with a new file id")
    func rotatedFileFollowed() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("rotated")
        let file = dir + "/taps.jsonl"
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        var old: RecordAppender? = RecordAppender(path: file)
        old?.append(count: 10)
        let forward = try startForward(file: file, url: url(topic))
        defer { forward.stop() }
        #expect(LineProcess.waitUntil(20) { consumer.lines.count >= 10 })
        // logrotate: rename, the writer appends a last record to the old file, then reopens the path.
        #expect(rename(file, file + ".1") == 0)
        old?.append(count: 1)
        old = nil
        let fresh = RecordAppender(path: file)
        fresh.append(count: 5)
        #expect(LineProcess.waitUntil(20) { consumer.lines.count >= 16 }, "\(forward.stderr)")
        let messages = consumer.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(messages.map { $0["seq"] as? Int ?? 0 } == Array(1...11) + Array(1...5))
        let ids = messages.compactMap { $0["recordId"] as? String }
        #expect(Set(ids).count == 16, "ids are unique across the two files: \(ids)")
        #expect(ids[11].hasSuffix("-1") && ids[10].hasSuffix("-11") && ids[11].dropLast(2) != ids[0].dropLast(2))
        #expect(forward.stderr.contains("(a new file) from its start"), "\(forward.stderr)")
    }

    @Test("mqtts with the test CA delivers; another CA is refused and the records wait")
    func tlsVerifiesTheBroker() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("tls")
        let file = dir + "/taps.jsonl"
        let appender = RecordAppender(path: file)
        appender.append(count: 20)
        let tlsURL = "mqtts://bench:tls-pass-123@127.0.0.1:\(TestBroker.tlsPort)/\(topic)"

        let refused = try startForward(file: file, url: tlsURL, extra: ["--mqtt-ca", TestBroker.otherCAFile])
        #expect(LineProcess.waitUntil(10) { refused.stderr.contains("cannot connect") })
        usleep(500_000)
        refused.stop()
        #expect(refused.stderr.contains("(CA file \(TestBroker.otherCAFile))"), "the TLS error names the CA file: \(refused.stderr)")
        #expect(!refused.stderr.contains("tls-pass-123"), "password in the log: \(refused.stderr)")
        let waiting = try runCLI(["fleet", "status", file, "--json"])
        #expect(waiting.stdout.contains("\"backlogRecords\":20"), "\(waiting.stdout)")

        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        let trusted = try startForward(file: file, url: tlsURL, extra: ["--mqtt-ca", TestBroker.caFile])
        defer { trusted.stop() }
        #expect(LineProcess.waitUntil(20) { Delivery(consumer.lines).complete(20) }, "\(trusted.stderr)")
        Delivery(consumer.lines).verify(20)
        let mapped = mappedLibraries(trusted.process.processIdentifier)
        #expect(mapped.contains("libmosquitto.so") && mapped.contains("libssl.so"), "TLS is libmosquitto's and OpenSSL's: \(mapped)")
        #expect(!trusted.stderr.contains("tls-pass-123"))
        #expect(trusted.stderr.contains("bench:***@"), "\(trusted.stderr)")
    }

    @Test("a mqtt:// station delivers through libmosquitto, as an mqtts:// one does")
    func plainStationUsesLibmosquitto() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("plain")
        let file = dir + "/taps.jsonl"
        RecordAppender(path: file).append(count: 30)
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        let station = try startForward(file: file, url: url(topic))
        defer { station.stop() }
        #expect(LineProcess.waitUntil(20) { Delivery(consumer.lines).complete(30) }, "\(station.stderr)")
        Delivery(consumer.lines).verify(30)
        let mapped = mappedLibraries(station.process.processIdentifier)
        #expect(mapped.contains("libmosquitto.so"), "one MQTT client, libmosquitto's: \(mapped)")
    }

    /// The shared objects mapped into process `pid`, one path per line.
    func mappedLibraries(_ pid: Int32) -> String {
        // Read to the end by hand: /proc files report size 0, and a read sized by stat stops early.
        var bytes: [UInt8] = []
        let fd = open("/proc/\(pid)/maps", O_RDONLY)
        if fd >= 0 {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while case let n = chunk.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }), n > 0 { bytes += chunk[0..<n] }
            close(fd)
        }
        let maps = String(decoding: bytes, as: UTF8.self)
        let paths = Set(maps.split(separator: "\n").compactMap { line in line.split(separator: " ").last.map(String.init) })
        return paths.filter { $0.contains(".so") }.sorted().joined(separator: "\n")
    }

    @Test("Retained status: online while connected, offline (Last Will) when the station dies")
    func retainedStatusAndLastWill() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("will")
        let statusTopic = String(topic.dropLast("taps".count)) + "status"
        let file = dir + "/taps.jsonl"
        RecordAppender(path: file).append(count: 1)
        let station = try startForward(file: file, url: url(topic), extra: ["--ack-timeout", "1"])
        #expect(LineProcess.waitUntil(10) { station.stderr.contains("connected to") })
        func retained() throws -> String {
            try LineProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", statusTopic, "-C", "1", "-W", "3", "-F", "%p"])
                .waitForExit().joined()
        }
        #expect(try retained().contains("\"state\":\"online\""))
        station.kill9()  // no DISCONNECT: the broker publishes the Last Will when the keep-alive runs out
        #expect(LineProcess.waitUntil(25) { ((try? retained()) ?? "").contains("\"state\":\"offline\"") })
    }

    @Test("Bad URLs and options are refused with a clear message, passwords never shown")
    func refusesBadInput() throws {
        let file = dir + "/taps.jsonl"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (args, message) in [
            (["fleet", "forward", file, "--publish", "mqtt:///t"], "no broker host"),
            (["fleet", "forward", file, "--publish", "amqp://h/t"], "unknown scheme"),
            (["fleet", "forward", file, "--publish", "mqtt://u:pw-xyz@h:70000/t"], "bad port"),
            (["fleet", "forward", file, "--publish", "mqtt://h"], "no topic"),
            (["inventory", "--publish", "mqtt://h/t"], "--publish needs --output"),
            (["inventory", "--publish", "mqtt://h/t", "--output", dir + "/x.csv"], "JSON Lines"),
        ] {
            let result = try runCLI(args, timeout: 20)
            #expect(result.status != 0)
            #expect(result.stderr.contains(message), "\(args): \(result.stderr)")
            #expect(!result.stderr.contains("pw-xyz"))
        }
    }
}

extension LineProcess {
    /// Waits for the process to end by itself; its stdout lines.
    func waitForExit() -> [String] {
        process.waitUntilExit()
        usleep(50_000)
        return lines
    }
}
