import Foundation
import Testing

/// Ring 3: the forwarder, `inventory --publish` and the kiosk's publish as an operator (or an
/// attacker with a file or a DNS server) meets them: a resolver that never answers, hostile
/// secrets, bad CA files, broker topics, huge names, planted files, two forwarders, a reload that
/// changes the output (docs/fleet.md and docs/faults.md).
@Suite(.serialized, .enabled(if: SystemEnvironment.available("mosquitto"), "needs the test broker (scripts/test.sh starts it)"))
struct FleetOperatorTests {
    let dir = NSTemporaryDirectory() + "fleet-operator-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func topic(_ name: String) -> String { "nfctap/test-\(UUID().uuidString.prefix(8))/\(name)/taps" }

    func write(_ name: String, _ text: String) -> String {
        let path = dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// A DNS server that swallows every query: UDP 127.0.0.1:53 in this test's network namespace.
    final class SilentDNS {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        init?() {
            var address = LinkProxy.loopback(port: 53)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound != 0 { close(fd); return nil }
        }
        deinit { close(fd) }
        /// Queries received (and dropped) so far.
        func drain() -> Int {
            var count = 0
            var buffer = [UInt8](repeating: 0, count: 1500)
            while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 { count += 1 }
            return count
        }
    }

    @Test("SIGTERM ends fleet forward, inventory --publish and the kiosk within 1 s while DNS never answers",
          arguments: ["forward", "inventory", "kiosk"])
    func silentDNSDoesNotHoldUpAStop(command: String) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dns = try #require(SilentDNS(), "UDP 127.0.0.1:53 is taken")
        let resolv = write("resolv.conf", "nameserver 127.0.0.1\noptions timeout:30 attempts:5\n")
        let file = dir + "/taps.jsonl"
        let url = "mqtt://broker.fleet-test.example/\(topic("dns"))"
        let arguments: [String]
        switch command {
        case "forward":
            _ = write("taps.jsonl", "{\"seq\":1}\n")
            arguments = ["fleet", "forward", file, "--publish", url]
        case "inventory":
            arguments = ["inventory", "--output", file, "--publish", url]
        default:
            let config = write("kiosk.json", #"{"action": "json", "output": "\#(file)", "readers": ["no such reader"], "publish": {"url": "\#(url)"}}"#)
            arguments = ["kiosk", "--config", config]
        }
        // The child sees the silent resolver through its own mount namespace.
        let child = try LineProcess("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c",
                                                          "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", resolv,
                                                          SystemEnvironment.cliPath] + arguments)
        #expect(LineProcess.waitUntil(10) { dns.drain() > 0 }, "the query reached the silent resolver: \(child.stderr)")
        usleep(500_000)
        #expect(child.process.isRunning, "\(child.stderr)")
        let start = Date()
        child.signal(SIGTERM)
        let ended = LineProcess.waitUntil(10) { !child.process.isRunning }
        let seconds = Date().timeIntervalSince(start)
        if !ended { child.kill9() }
        #expect(ended && seconds < 3, "\(command): \(seconds) s after SIGTERM; \(child.stderr.suffix(1500))")
        print(String(format: "fleet silent DNS: %@ ended %.2f s after SIGTERM", command, seconds))
    }

    @Test("a base64 password with '/', '+', '=' reaches the broker percent-encoded and never appears in any output; raw, it is refused")
    func hostileSecretNeverShown() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("secret")
        let file = write("taps.jsonl", "{\"seq\":1}\n")
        // Raw '/', '@' and ':' in the password: refused, saying how to encode them, the secret not shown.
        let raw = try runCLI(["fleet", "forward", file, "--publish", "mqtt://station-7:Zm9v/YmFy+YmF6@cXV4:==@127.0.0.1:\(TestBroker.port)/\(topic)"])
        #expect(raw.status != 0 && raw.stderr.contains("percent-encode"), "\(raw.stderr)")
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        let secret = "Zm9v%2FYmFy+YmF6%40cXV4%3A=="  // Zm9v/YmFy+YmF6@cXV4:== as RFC 3986 writes it
        let forward = try startForward(file: file, url: "mqtt://station-7:\(secret)@127.0.0.1:\(TestBroker.port)/\(topic)")
        #expect(LineProcess.waitUntil(20) { consumer.lines.count >= 1 }, "\(forward.stderr)")
        // logrotate's postrotate SIGHUP does not kill it: it goes on publishing.
        forward.signal(SIGHUP)
        usleep(300_000)
        #expect(forward.process.isRunning)
        let fd = open(file, O_WRONLY | O_APPEND)
        _ = "{\"seq\":2}\n".utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        #expect(LineProcess.waitUntil(20) { consumer.lines.count >= 2 }, "\(forward.stderr)")
        forward.stop()
        #expect(forward.process.terminationStatus == 0)
        #expect(forward.stderr.contains("mqtt://station-7:***@127.0.0.1"), "\(forward.stderr)")
        // A broker that refuses: the retry lines name the URL, never the secret or a piece of it.
        let refused = try startForward(file: file, url: "mqtt://station-7:\(secret)@127.0.0.1:1/\(topic)")
        #expect(LineProcess.waitUntil(10) { refused.stderr.contains("cannot connect") })
        refused.stop()
        for text in [raw.stdout + raw.stderr, forward.stderr, refused.stderr, consumer.lines.joined()] {
            for piece in ["Zm9v", "YmFy", "YmF6", "cXV4"] { #expect(!text.contains(piece), "\(piece) in \(text)") }
        }
    }

    @Test("bad settings refused at start, naming the problem: garbage/missing CA, $SYS topic, 70,000-character station")
    func badSettingsRefusedAtStart() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = write("taps.jsonl", "{\"seq\":1}\n")
        let garbage = write("garbage.pem", "this is not a certificate\n")
        let missing = dir + "/missing.pem"
        let tls = "mqtts://127.0.0.1:\(TestBroker.tlsPort)/nfctap/a/b/taps"
        for ca in [garbage, missing] {
            let r = try runCLI(["fleet", "forward", file, "--publish", tls, "--mqtt-ca", ca])
            #expect(r.status == 1 && r.stderr.contains(ca), "\(r.stderr)")
        }
        for url in ["mqtt://127.0.0.1/$SYS/broker/x", "mqtt://127.0.0.1/%24SYS/x"] {
            let r = try runCLI(["fleet", "forward", file, "--publish", url])
            #expect(r.status == 1 && r.stderr.contains("broker's own"), "\(r.stderr)")
        }
        // The kiosk: caFile garbage, a huge station.
        let output = dir + "/kiosk.jsonl"
        let station = String(repeating: "s", count: 70_000)
        for (publish, expected) in [(#"{"url": "\#(tls)", "caFile": "\#(garbage)"}"#, garbage),
                                    (#"{"url": "mqtt://127.0.0.1", "site": "n", "station": "\#(station)"}"#, "at most 128 bytes")] {
            let config = write("kiosk-\(UUID().uuidString).json", #"{"action": "json", "output": "\#(output)", "readers": ["none"], "publish": \#(publish)}"#)
            let r = try runCLI(["kiosk", "--config", config])
            #expect(r.status == 1 && r.stderr.contains(expected) && r.stderr.count < 2000, "\(r.stderr.prefix(2000))")
        }
    }

    @Test("planted files: the outbox a symbolic link to a secret, a FIFO, a second forwarder; fleet status escapes C1/bidi")
    func plantedFilesAndSecondForwarder() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("planted")
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        let url = "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)"
        let secret = write("secret.conf", "{\"password\":\"shadow-like-line\"}\n")
        let link = dir + "/link.jsonl"
        symlink(secret, link)
        let viaLink = try startForward(file: link, url: url)
        #expect(LineProcess.waitUntil(10) { viaLink.stderr.contains("is a symbolic link") }, "\(viaLink.stderr)")
        let fifo = dir + "/fifo.jsonl"
        mkfifo(fifo, 0o600)
        let viaFIFO = try startForward(file: fifo, url: url)
        #expect(LineProcess.waitUntil(10) { viaFIFO.stderr.contains("FIFO") }, "\(viaFIFO.stderr)")
        for p in [viaLink, viaFIFO] {
            let start = Date()
            p.stop()
            #expect(Date().timeIntervalSince(start) < 3, "SIGTERM ends it at once")
        }
        usleep(300_000)
        #expect(!consumer.lines.joined().contains("shadow-like-line"))
        #expect(try runCLI(["fleet", "status", link]).status == 1)

        let file = write("taps.jsonl", "{\"seq\":1}\n")
        let first = try startForward(file: file, url: url)
        defer { first.stop() }
        #expect(LineProcess.waitUntil(20) { consumer.lines.count >= 1 })
        let second = try runCLI(["fleet", "forward", file, "--publish", url])
        #expect(second.status == 1 && second.stderr.contains("already published by process \(first.process.processIdentifier)"), "\(second.stderr)")

        let hostile = write("taps\u{9B}31m\u{202E}gpj.jsonl", "{\"seq\":1}\n")
        let json = try runCLI(["fleet", "status", hostile, "--json"])
        #expect(json.status == 0 && json.stdout.contains("\\u009b") && json.stdout.contains("\\u202e"), "\(json.stdout)")
        #expect(!json.stdout.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E })
        let text = try runCLI(["fleet", "status", hostile])
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E }, "\(text.stdout)")
    }

    @Test("a kiosk reload (SIGHUP) that changes output: the new file is published, and the log says so")
    func kioskReloadChangesOutput() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("reload")
        let consumer = try startConsumer(topic: topic)
        defer { consumer.stop() }
        let url = "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)"
        func config(_ output: String) -> String {
            #"{"action": "json", "output": "\#(output)", "readers": ["no such reader"], "publish": {"url": "\#(url)"}}"#
        }
        let first = dir + "/first.jsonl", second = dir + "/second.jsonl"
        let path = write("kiosk.json", config(first))
        chmod(path, 0o600)
        let kiosk = try LineProcess(SystemEnvironment.cliPath, ["kiosk", "--config", path])
        defer { kiosk.stop() }
        #expect(LineProcess.waitUntil(15) { kiosk.stderr.contains("MQTT: connected") }, "\(kiosk.stderr)")
        // Records appended by another writer (the kiosk has no reader here), as the kiosk writes them.
        let line = #"{"uid":"04AA","type":"NTAG215","reader":"r"}"# + "\n"
        func append(_ file: String, _ text: String) {
            let fd = open(file, O_WRONLY | O_APPEND)
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
        append(first, line)
        #expect(LineProcess.waitUntil(15) { consumer.lines.count >= 1 })
        try config(second).write(toFile: path, atomically: true, encoding: .utf8)
        kiosk.signal(SIGHUP)
        #expect(LineProcess.waitUntil(15) { kiosk.stderr.contains("publishing") && kiosk.stderr.contains(second) }, "\(kiosk.stderr)")
        append(second, line.replacingOccurrences(of: "04AA", with: "04BB"))
        #expect(LineProcess.waitUntil(15) { consumer.lines.count >= 2 }, "\(kiosk.stderr)")
        #expect(consumer.lines.last?.contains("04BB") == true, "\(consumer.lines)")
    }
}

extension FleetOperatorTests {
    /// Appends one record line to `file` in one write.
    func tap(_ file: String, _ record: String) {
        let fd = open(file, O_WRONLY | O_APPEND)
        _ = (record + "\n").utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    /// The retained message on `topic` (nil: none), as a subscriber arriving later gets it.
    /// (Not `mosquitto_sub -W`: its alarm never fires under the test runner, which blocks SIGALRM.)
    func retained(_ topic: String) throws -> String? {
        let sub = try LineProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", topic, "-C", "1"])
        defer { sub.kill9() }
        _ = LineProcess.waitUntil(2) { !sub.lines.isEmpty }
        return sub.lines.first
    }

    @Test("Home Assistant: the retained tag scanner config matches HA's schema; a tap made while the broker is away reaches HA's topic")
    func homeAssistantDiscovery() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("ha")
        let haTopic = String(topic.dropLast("taps".count)) + "homeassistant"
        let prefix = "ha-\(UUID().uuidString.prefix(8))"
        let file = write("taps.jsonl", "")
        let link = try LinkProxy(to: UInt16(TestBroker.port) ?? 1883)
        defer { link.stop() }
        let ha = try startConsumer(topic: haTopic)
        defer { ha.stop() }
        let forward = try startForward(file: file, url: "mqtt://127.0.0.1:\(link.port)/\(topic)",
                                       extra: ["--homeassistant", "--homeassistant-prefix", prefix, "--ack-timeout", "1", "--retry-max", "0.3"])
        defer { forward.stop() }
        #expect(LineProcess.waitUntil(15) { forward.stderr.contains("MQTT: connected") }, "\(forward.stderr)")
        // A subscriber arriving later gets the retained config, as HA does when it starts.
        let discovery = try LineProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", "\(prefix)/tag/#",
                                                                    "-C", "1", "-W", "10", "-v"]).waitForExit().joined()
        let space = try #require(discovery.firstIndex(of: " "), "no retained discovery config: \(discovery)")
        let configTopic = String(discovery[..<space])
        defer { _ = try? LineProcess("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", configTopic, "-r", "-n"]).waitForExit() }
        let config = try #require(try JSONSerialization.jsonObject(with: Data(discovery[discovery.index(after: space)...].utf8)) as? [String: Any])
        // HA's tag scanner schema: <prefix>/tag/[<node>/]<object>/config; topic required; value_template;
        // device required with identifiers or connections.
        let levels = configTopic.split(separator: "/")
        #expect(levels.first.map(String.init) == prefix && levels[1] == "tag" && levels.last == "config" && (4...5).contains(levels.count))
        #expect(config["topic"] as? String == haTopic)
        let device = try #require(config["device"] as? [String: Any])
        #expect(!((device["identifiers"] as? [String]) ?? []).isEmpty)
        #expect(device["model"] is String && device["sw_version"] is String)
        #expect(Set(config.keys).isSubset(of: ["topic", "value_template", "device", "qos", "encoding"]), "keys HA drops: \(config.keys.sorted())")

        link.cut(refusingFor: 600)  // the broker away: the tap waits in the file
        tap(file, #"{"time":"2026-12-02T10:00:00.000Z","uid":"04A1B2C3D4E5F6","type":"NTAG215","reader":"r"}"#)
        usleep(1_000_000)
        #expect(ha.lines.isEmpty)
        link.cut(refusingFor: 0)
        #expect(LineProcess.waitUntil(20) { ha.lines.count >= 1 }, "\(forward.stderr)")
        // What HA reads from it: the template rendered as HA renders it (Jinja2's immutable sandbox).
        let template = try #require(config["value_template"] as? String)
        #expect(try renderLikeHomeAssistant(template, payloads: ha.lines) == ["04A1B2C3D4E5F6"], "\(ha.lines)")
        let message = try #require(try JSONSerialization.jsonObject(with: Data((ha.lines.first ?? "").utf8)) as? [String: Any])
        #expect(message["time"] as? String == "2026-12-02T10:00:00.000Z", "the tap's own time")
    }

    @Test("Home Assistant's will holds taps for it and its birth re-announces and sends them once; records without a tag id never reach HA")
    func homeAssistantBirthAndWill() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("ha-birth")
        let haTopic = String(topic.dropLast("taps".count)) + "homeassistant"
        let prefix = "ha-\(UUID().uuidString.prefix(8))"
        let file = write("taps.jsonl", "")
        func status(_ state: String) throws {
            _ = try LineProcess("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", "\(prefix)/status", "-q", "1", "-m", state]).waitForExit()
        }
        let ha = try startConsumer(topic: haTopic)
        defer { ha.stop() }
        let records = try startConsumer(topic: topic)
        defer { records.stop() }
        let configs = try LineProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", "\(prefix)/tag/#", "-v"])
        defer { configs.stop() }
        let forward = try startForward(file: file, url: "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)",
                                       extra: ["--homeassistant", "--homeassistant-prefix", prefix])
        defer {
            forward.stop()
            for line in configs.lines { if let space = line.firstIndex(of: " ") {
                _ = try? LineProcess("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", TestBroker.port, "-t", String(line[..<space]), "-r", "-n"]).waitForExit()
            } }
        }
        #expect(LineProcess.waitUntil(15) { forward.stderr.contains("MQTT: connected") && configs.lines.count == 1 }, "\(forward.stderr)")
        tap(file, #"{"uid":"04000000000001"}"#)
        #expect(LineProcess.waitUntil(10) { ha.lines.count == 1 }, "\(forward.stderr)")

        try status("offline")
        #expect(LineProcess.waitUntil(5) { forward.stderr.contains("Home Assistant is offline") }, "\(forward.stderr)")
        tap(file, #"{"uid":"04000000000002","haTag":"kitchen_door"}"#)
        tap(file, #"{"uid":null}"#)
        tap(file, #"{"uid":"04000000000003"}"#)
        #expect(LineProcess.waitUntil(10) { records.lines.count == 4 }, "other consumers get every record at once")
        usleep(3_000_000)
        #expect(ha.lines.count == 1, "held while HA is offline: \(ha.lines)")
        #expect(FileManager.default.fileExists(atPath: file + ".homeassistant-held"), "held taps survive a restart")

        try status("online")
        #expect(LineProcess.waitUntil(5) { configs.lines.count == 2 }, "the birth re-announces the station: \(configs.lines)")
        #expect(LineProcess.waitUntil(10) { ha.lines.count == 3 }, "\(forward.stderr)")
        usleep(3_000_000)
        let ids = ha.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.compactMap { $0["tagId"] as? String }
        #expect(ids == ["04000000000001", "kitchen_door", "04000000000003"], "once each, in order, HA's own id first: \(ha.lines)")
        #expect(!FileManager.default.fileExists(atPath: file + ".homeassistant-held"))
        #expect(forward.stderr.components(separatedBy: "has no tag id").count == 2, "said once: \(forward.stderr)")
    }

    @Test("a kiosk reload that drops \"homeassistant\" clears the station's retained config; one that keeps it keeps one config")
    func kioskReloadClearsHomeAssistant() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("reload-ha")
        let prefix = "ha-\(UUID().uuidString.prefix(8))"
        let url = "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)"
        func config(_ output: String, homeAssistant: Bool) -> String {
            #"{"action": "json", "output": "\#(output)", "readers": ["no such reader"], "publish": {"url": "\#(url)"}"#
                + (homeAssistant ? #", "homeassistant": {"prefix": "\#(prefix)"}}"# : "}")
        }
        let path = write("kiosk.json", config(dir + "/first.jsonl", homeAssistant: true))
        chmod(path, 0o600)
        let kiosk = try LineProcess(SystemEnvironment.cliPath, ["kiosk", "--config", path])
        defer { kiosk.stop() }
        #expect(LineProcess.waitUntil(15) { kiosk.stderr.contains("MQTT: connected") }, "\(kiosk.stderr)")
        let announced = try #require(try retained("\(prefix)/tag/#"))
        // Another output file, same station and topic: the same tag scanner, still announced.
        try config(dir + "/second.jsonl", homeAssistant: true).write(toFile: path, atomically: true, encoding: .utf8)
        kiosk.signal(SIGHUP)
        #expect(LineProcess.waitUntil(15) { kiosk.stderr.components(separatedBy: "MQTT: connected").count == 3 }, "\(kiosk.stderr)")
        #expect(try retained("\(prefix)/tag/#") == announced)
        #expect(!kiosk.stderr.contains("clearing the station's old tag scanner"))
        try config(dir + "/second.jsonl", homeAssistant: false).write(toFile: path, atomically: true, encoding: .utf8)
        kiosk.signal(SIGHUP)
        #expect(LineProcess.waitUntil(15) { kiosk.stderr.contains("clearing the station's old tag scanner") }, "\(kiosk.stderr)")
        #expect(LineProcess.waitUntil(10) { (try? retained("\(prefix)/tag/#")) == .some(nil) }, "the old config is gone")
    }

    @Test("fleet forget-station clears the station's retained Home Assistant config and status")
    func forgetStation() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let topic = topic("forget")
        let prefix = "ha-\(UUID().uuidString.prefix(8))"
        let file = write("taps.jsonl", "")
        let url = "mqtt://127.0.0.1:\(TestBroker.port)/\(topic)"
        let forward = try startForward(file: file, url: url, extra: ["--homeassistant", "--homeassistant-prefix", prefix])
        #expect(LineProcess.waitUntil(15) { forward.stderr.contains("MQTT: connected") }, "\(forward.stderr)")
        forward.stop()
        let statusTopic = String(topic.dropLast("taps".count)) + "status"
        #expect(try retained("\(prefix)/tag/#") != nil)
        #expect(try retained(statusTopic)?.contains("offline") == true)
        let forget = try LineProcess(SystemEnvironment.cliPath, ["fleet", "forget-station", "--publish", url, "--homeassistant-prefix", prefix])
        let output = try forget.waitForExit()
        #expect(forget.process.terminationStatus == 0, "\(forget.stderr)")
        #expect(output.count == 2 && output.allSatisfy { $0.hasPrefix("cleared ") }, "\(output)")
        #expect(try retained("\(prefix)/tag/#") == nil)
        #expect(try retained(statusTopic) == nil)
        // An unreachable broker is an error, exit 1, named.
        let refused = try LineProcess(SystemEnvironment.cliPath, ["fleet", "forget-station", "--publish", "mqtt://127.0.0.1:1/\(topic)"])
        _ = try refused.waitForExit()
        #expect(refused.process.terminationStatus == 1 && refused.stderr.contains("cannot clear the station"), "\(refused.stderr)")
    }
}

/// `template` rendered for each payload the way Home Assistant's MQTT tag platform does: Jinja2's
/// ImmutableSandboxedEnvironment with `value` and `value_json`, the result stripped.
func renderLikeHomeAssistant(_ template: String, payloads: [String]) throws -> [String] {
    let script = """
    import json, sys
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    t = ImmutableSandboxedEnvironment().from_string(sys.argv[1])
    print(json.dumps([t.render(value=p, value_json=json.loads(p)).strip() for p in sys.argv[2:]]))
    """
    let output = try LineProcess("/usr/bin/python3", ["-c", script, template] + payloads).waitForExit().joined()
    return try JSONDecoder().decode([String].self, from: Data(output.utf8))
}

