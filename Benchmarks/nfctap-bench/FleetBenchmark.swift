// `nfctap-bench fleet PORT`: MQTT publishing figures for docs/fleet.md (scripts/fleet-bench.sh
// starts a private broker on 127.0.0.1 and runs this). Everything on this one machine: broker,
// stations (in-process forwarders, each its own connection and record file) and the consumer.
import Fleet
import Foundation
import MQTT
import Synchronization

/// A QoS 1 subscriber on its own thread, counting messages and collecting latencies.
// @unchecked: `client` is used only by the loop thread once `init` has connected it
// (MQTTClient is single-threaded by design); the counters are behind `state`.
final class BenchConsumer: @unchecked Sendable {
    private let client: MQTTClient
    private let state = Mutex<(count: Int, latencies: [Double], running: Bool)>((0, [], true))
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, topic: String) throws {
        let client = try MQTTClient(options: MQTTClientOptions(clientID: "bench-consumer-\(UUID().uuidString.prefix(8))"))
        self.client = client
        let subscribed = DispatchSemaphore(value: 0)
        client.onEvent = { [unowned self] event in
            switch event {
            case .connected: _ = try? client.subscribe(topic, qos: 1)
            case .subscribed: subscribed.signal()
            case let .message(_, payload):
                var latency: Double?
                if let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
                   let sent = object["sentNs"] as? Double {
                    latency = (wallNanoseconds() - sent) / 1e6
                }
                state.withLock {
                    $0.count += 1
                    if let latency { $0.latencies.append(latency) }
                }
            default: break
            }
        }
        try client.connect(host: "127.0.0.1", port: port)
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) { try? self.client.loop(timeoutMilliseconds: 50) }
            self.client.disconnect()
            done.signal()
        }
        _ = subscribed.wait(timeout: .now() + 5)
    }

    var count: Int { state.withLock { $0.count } }
    var latencies: [Double] { state.withLock { $0.latencies } }

    func stop() {
        state.withLock { $0.running = false }
        done.wait()
    }
}

func wallNanoseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

/// Writes `count` inventory-like records (≈ 190 bytes each) to a new file.
func writeRecords(_ path: String, count: Int, from first: Int = 1) {
    var text = ""
    for seq in first..<(first + count) {
        text += "{\"seq\":\(seq),\"time\":\"2026-11-25T03:00:00.000Z\",\"uid\":\"04A1B2C3D4E5F6\",\"type\":\"ntag213\",\"product\":\"NTAG213\",\"reader\":\"Bench Reader 00 00\",\"summary\":\"https://example.com/asset/\(seq)\",\"duplicate\":false}\n"
    }
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
}

func benchForwarder(_ path: String, port: Int, topic: String, maxInFlight: Int = 16) -> Forwarder {
    let url = PublishURL(secure: false, host: "127.0.0.1", port: port, topic: topic)
    var configuration = ForwarderConfiguration(outboxPath: path, url: url, stationID: String(repeating: "ab", count: 16))
    configuration.maxInFlight = maxInFlight
    return Forwarder(configuration: configuration)
}

func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}

func fleetBenchmark(port: Int, records: Int, stations: Int, perStation: Int, latencySamples: Int) {
    let dir = NSTemporaryDirectory() + "nfctap-fleet-bench-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    print("| Fleet (one broker, mosquitto on 127.0.0.1, this machine) | Result |")
    print("|---|---|")

    // 1. One station: a backlog of `records` published (PUBACKed), window 16 and window 1.
    for window in [16, 1] {
        let path = dir + "/one-\(window).jsonl"
        let topic = "bench/one-\(window)/taps"
        let count = window == 1 ? min(records, 5000) : records
        writeRecords(path, count: count)
        guard let consumer = try? BenchConsumer(port: port, topic: topic) else { log("no broker on \(port)"); exit(1) }
        let forwarder = benchForwarder(path, port: port, topic: topic, maxInFlight: window)
        let start = Date()
        do { try forwarder.start() } catch { log("fleet bench: \(error)"); return }
        let acked = waitFor(120) { forwarder.status.acknowledgedRecords >= UInt64(count) }
        let elapsed = Date().timeIntervalSince(start)
        _ = waitFor(30) { consumer.count >= count }
        forwarder.stop()
        consumer.stop()
        log("one station, window \(window): \(count) records in \(elapsed) s (acked: \(acked), consumed \(consumer.count))")
        print("| One station publishing a backlog, \(window) in flight | \(Int(Double(count) / elapsed)) records/s (\(count) records, all PUBACKed\(consumer.count >= count ? " and consumed" : "")) |")
    }

    // 2. `stations` stations at once, each with its own connection and file.
    do {
        let topicRoot = "bench/many"
        let consumer = try? BenchConsumer(port: port, topic: "\(topicRoot)/+/taps")
        var forwarders: [Forwarder] = []
        for i in 0..<stations {
            let path = dir + "/station-\(i).jsonl"
            writeRecords(path, count: perStation)
            forwarders.append(benchForwarder(path, port: port, topic: "\(topicRoot)/s\(i)/taps"))
        }
        let total = stations * perStation
        let start = Date()
        do { for f in forwarders { try f.start() } } catch { log("fleet bench: \(error)"); return }
        let acked = waitFor(300) { forwarders.allSatisfy { $0.status.acknowledgedRecords >= UInt64(perStation) } }
        let elapsed = Date().timeIntervalSince(start)
        _ = waitFor(60) { (consumer?.count ?? 0) >= total }
        for f in forwarders { f.stop() }
        consumer?.stop()
        log("\(stations) stations: \(total) records in \(elapsed) s (acked \(acked), consumed \(consumer?.count ?? 0))")
        print("| One broker taking \(stations) stations at once (\(perStation) records each) | \(Int(Double(total) / elapsed)) records/s (\(total) records PUBACKed; consumer got \(consumer?.count ?? 0)) |")
    }

    // 3. Tap → consumer: a record appended and synced (the tap is confirmed), forwarded, consumed.
    do {
        let path = dir + "/latency.jsonl"
        let topic = "bench/latency/taps"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let consumer = try? BenchConsumer(port: port, topic: topic)
        let forwarder = benchForwarder(path, port: port, topic: topic)
        do { try forwarder.start() } catch { log("fleet bench: \(error)"); return }
        _ = waitFor(5) { forwarder.status.connection == .connected }
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        for seq in 1...latencySamples {
            let line = "{\"seq\":\(seq),\"sentNs\":\(Int64(wallNanoseconds())),\"uid\":\"04A1B2C3D4E5F6\"}\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            _ = fdatasync(fd)
            usleep(20_000)  // 50 taps/s: far above a person's pace
        }
        close(fd)
        _ = waitFor(30) { (consumer?.latencies.count ?? 0) >= latencySamples }
        forwarder.stop()
        consumer?.stop()
        let sorted = (consumer?.latencies ?? []).sorted()
        if sorted.isEmpty {
            print("| Tap → consumer latency | no samples |")
        } else {
            let median = sorted[sorted.count / 2]
            let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            print(String(format: "| Tap → consumer latency (record synced on disk → consumer got it; %d taps at 50/s) | median %.2f ms, p99 %.2f ms |", sorted.count, median, p99))
        }
    }
}
