import Foundation
import Synchronization
import Testing

/// The test broker of scripts/services/mosquitto.sh, and the processes a fleet test runs.
enum TestBroker {
    static var env: [String: String] { ProcessInfo.processInfo.environment }
    static var port: String { env["NFCTAP_MOSQUITTO_PORT"] ?? "1883" }
    static var tlsPort: String { env["NFCTAP_MOSQUITTO_TLS_PORT"] ?? "8883" }
    static var caFile: String { env["NFCTAP_MOSQUITTO_CA"] ?? "/nonexistent" }
    static var otherCAFile: String { env["NFCTAP_MOSQUITTO_OTHER_CA"] ?? "/nonexistent" }

    /// "$NFCTAP_MOSQUITTO_CTL" start|stop|kill|pause|resume|restart.
    static func ctl(_ action: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: env["NFCTAP_MOSQUITTO_CTL"] ?? "/bin/false")
        process.arguments = [action]
        try? process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "mosquitto-ctl \(action) failed")
    }
}

/// A child process whose output is collected line by line.
final class LineProcess: Sendable {
    let process = Process()
    private let output = Mutex((lines: [String](), stderr: ""))

    init(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    output.withLock { $0.lines.append(line) }
                }
            }
        }
        Thread.detachNewThread { [self] in
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                output.withLock { $0.stderr += String(decoding: chunk, as: UTF8.self) }
            }
        }
    }

    var lines: [String] { output.withLock { $0.lines } }
    var stderr: String { output.withLock { $0.stderr } }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// SIGTERM, then waits (SIGKILL after 10 s).
    func stop() {
        guard process.isRunning else { return }
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { signal(SIGKILL) }
        process.waitUntilExit()
    }

    func kill9() {
        signal(SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until `condition` holds or `seconds` pass; returns whether it held.
    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }
}

/// A consumer: mosquitto_sub with a persistent session (QoS 1), payloads one per line.
func startConsumer(topic: String, port: String = TestBroker.port, extra: [String] = []) throws -> LineProcess {
    let consumer = try LineProcess("/usr/bin/mosquitto_sub", [
        "-h", "127.0.0.1", "-p", port, "-t", topic, "-q", "1", "-c", "-i", "consumer-" + UUID().uuidString.prefix(8),
        "-F", "%p",
    ] + extra)
    usleep(500_000)  // subscribed (a persistent session then keeps messages through broker restarts)
    return consumer
}

/// The nfctap forwarder as a user runs it.
func startForward(file: String, url: String, extra: [String] = [], environment: [String: String] = [:]) throws -> LineProcess {
    try LineProcess(SystemEnvironment.cliPath, ["fleet", "forward", file, "--publish", url, "--status-every", "1"] + extra,
                    environment: environment)
}

/// Appends inventory-like records, each synced, as the recorder does before the beep.
final class RecordAppender {
    let path: String
    private let fd: Int32
    private(set) var written = 0

    init(path: String) {
        self.path = path
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
    }

    deinit { close(fd) }

    /// - Parameter sync: fdatasync each record (as the recorder does); false for quick bulk backlogs.
    func append(count: Int = 1, sync: Bool = true) {
        for _ in 0..<count {
            written += 1
            let line = "{\"seq\":\(written),\"time\":\"\(ISO8601DateFormatter().string(from: Date()))\",\"uid\":\"04A1B2C3D4E5\(String(format: "%02X", written % 256))\"}\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            if sync { _ = fdatasync(fd) }
        }
    }
}

/// What a consumer received, checked against `expected` records seq 1…expected.
struct Delivery {
    var firstSeen: [Int] = []
    var idsBySeq: [Int: Set<String>] = [:]
    var duplicates = 0
    var unparsable = 0

    init(_ lines: [String]) {
        var seen = Set<Int>()
        for line in lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let seq = object["seq"] as? Int, let id = object["recordId"] as? String else {
                unparsable += 1
                continue
            }
            idsBySeq[seq, default: []].insert(id)
            if seen.insert(seq).inserted { firstSeen.append(seq) } else { duplicates += 1 }
        }
    }

    func complete(_ expected: Int) -> Bool { Set(firstSeen) == Set(1...expected) }

    /// Every record arrived, first copies in order, one id per record.
    func verify(_ expected: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(firstSeen.count == expected, "\(firstSeen.count) of \(expected) records arrived", sourceLocation: sourceLocation)
        #expect(firstSeen == Array(1...expected), "records out of order or missing", sourceLocation: sourceLocation)
        let multi = idsBySeq.filter { $0.value.count != 1 }
        #expect(multi.isEmpty, "records with more than one id: \(multi.keys.sorted().prefix(5))", sourceLocation: sourceLocation)
        #expect(unparsable == 0, sourceLocation: sourceLocation)
    }
}
