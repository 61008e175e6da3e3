import Foundation
import NDEF
import NFCReaders
import ReaderCore
import Synchronization
import TagEmulation

/// `nfctap-bench tap-to-output <nfctap binary> <pyscard_tap.py>`: tap → output of `nfctap scan
/// --json` next to a straightforward pyscard reader (Benchmarks/peers/pyscard_tap.py), both on
/// the same two-reader pcscd + vpcd, as a user sees them: from the moment the vpcd card connects
/// (the tag "arrives" at pcscd) to the first line on the program's stdout.
///
/// Each tap starts the program, waits until it watches the readers ("Hold a tag near …" /
/// "ready" on stderr), waits a random 0–400 ms (pcscd polls vpcd about every 400 ms: a real tap
/// lands anywhere in that cycle), inserts a Type 4 tag on `Virtual PCD 00 00`, and times the
/// first stdout line. The tools alternate tap by tap so both see the same pcscd. pcscd's share
/// (noticing the card) is common to both, but the random poll phase makes medians of whole taps
/// noisy; so a watcher of its own (`SCardGetStatusChange`, no card access) also times when pcscd
/// reported the card, the moment both programs are woken: report → output is the program's own
/// share, compared median with median.
/// `NFCTAP_BENCH_TAPS` sets N per tool (default 20). Needs the private pcscd of
/// scripts/services/pcscd.sh (`PCSCLITE_CSOCK_NAME`).
func tapToOutputTable(nfctap: String, pyscard: String) {
    guard ProcessInfo.processInfo.environment["PCSCLITE_CSOCK_NAME"] != nil else {
        print("not run: no private pcscd with vpcd (PCSCLITE_CSOCK_NAME unset)")
        return
    }
    let taps = max(5, Int(ProcessInfo.processInfo.environment["NFCTAP_BENCH_TAPS"] ?? "") ?? 20)
    let tools: [(name: String, command: [String], ready: String)] = [
        ("`nfctap scan --json`", [nfctap, "scan", "--json", "--timeout", "30"], "Hold a tag near"),
        ("pyscard (pyscard_tap.py)", ["/usr/bin/python3", pyscard], "ready"),
    ]
    let watcher = ReportWatcher(reader: "Virtual PCD 00 00")
    guard let monitor = try? PCSCBackend(identifiesTags: { _ in false }).startMonitoring({ watcher.handle($0) }) else {
        print("not run: cannot watch pcscd")
        return
    }
    defer { monitor.stop() }
    var samples: [[TapTiming]] = tools.map { _ in [] }
    var failures: [String] = tools.map { _ in "" }
    var random = SystemRandomNumberGenerator()
    for _ in 0..<taps {
        for (index, tool) in tools.enumerated() {
            do {
                samples[index].append(try timeOneTap(tool.command, ready: tool.ready, watcher: watcher,
                                                     phase: Double.random(in: 0..<0.4, using: &random)))
            } catch {
                failures[index] = "\(error)"
            }
        }
    }
    print("| program | taps | tap → output, median ms | p90 ms | min ms | pcscd's report → output, median ms | p90 ms |")
    print("|---|---|---|---|---|---|---|")
    for (index, tool) in tools.enumerated() {
        let whole = samples[index].map(\.whole).sorted()
        let own = samples[index].compactMap(\.sinceReport).sorted()
        guard !whole.isEmpty else {
            print("| \(tool.name) | 0 | – | – | – | – | failed: \(failures[index]) |")
            continue
        }
        print("| \(tool.name) | \(whole.count) | \(oneDecimal(middle(whole))) | \(oneDecimal(p90(whole))) | \(oneDecimal(whole[0])) "
              + "| \(own.isEmpty ? "–" : oneDecimal(middle(own))) | \(own.isEmpty ? "–" : oneDecimal(p90(own))) |")
    }
    let own = samples.map { $0.compactMap(\.sinceReport) }
    if own.allSatisfy({ !$0.isEmpty }) {
        print()
        print("The programs' own share (pcscd's report → output), median difference nfctap − pyscard: "
              + "\(oneDecimal(middle(own[0]) - middle(own[1]))) ms over \(taps) taps each "
              + "(whole taps: \(oneDecimal(middle(samples[0].map(\.whole)) - middle(samples[1].map(\.whole)))) ms, "
              + "mostly where in pcscd's poll cycle each card landed).")
    }
}

/// One tap: from the card's insertion, and from pcscd's report of it (nil when the watcher missed it).
private struct TapTiming {
    var whole: Double
    var sinceReport: Double?
}

/// When pcscd last reported a card on `reader` (its own `SCardGetStatusChange`, the same event
/// that wakes the program under test).
private final class ReportWatcher: Sendable {
    private let reader: String
    private let reported = Mutex<ContinuousClock.Instant?>(nil)

    init(reader: String) { self.reader = reader }

    func handle(_ event: ReaderEvent) {
        if case let .tagArrived(tag) = event, tag.reader.name == reader {
            let now = ContinuousClock.now
            reported.withLock { $0 = now }
        }
    }

    func reset() { reported.withLock { $0 = nil } }
    var last: ContinuousClock.Instant? { reported.withLock { $0 } }
}

private func p90(_ sorted: [Double]) -> Double { sorted[min(sorted.count - 1, sorted.count * 9 / 10)] }


private func middle(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

private func oneDecimal(_ value: Double) -> String { String(format: "%.1f", value) }

private struct TapFailure: Error, CustomStringConvertible {
    var description: String
}

/// Starts `command`, waits for `ready` on its stderr, waits `phase` seconds, inserts the card and
/// returns the milliseconds until the first byte on stdout, from the insertion and from pcscd's report.
private func timeOneTap(_ command: [String], ready: String, watcher: ReportWatcher, phase: Double) throws -> TapTiming {
    try waitForReader(present: false)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    defer {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
    var seen = ""
    while !seen.contains(ready) {
        let chunk = stderr.fileHandleForReading.availableData
        guard !chunk.isEmpty else { throw TapFailure(description: "\(command[0]) ended before it was ready: \(seen)") }
        seen += String(decoding: chunk, as: UTF8.self)
    }
    Thread.sleep(forTimeInterval: phase)
    watcher.reset()
    let tag = VirtualType4Tag(version: .v2, ndef: (try? NDEFMessage(records: [.uri("https://nfctap.dev/t")]).encoded()) ?? [])
    let card = VPCDCard(behaviour: EmulatedPCSCReader(profile: .generic, tag: tag))
    try card.insert()
    let start = ContinuousClock.now
    defer { card.stop() }
    let first = stdout.fileHandleForReading.availableData
    let output = ContinuousClock.now
    guard !first.isEmpty else { throw TapFailure(description: "\(command[0]) printed nothing: \(seen)") }
    // Drain stderr so the program never blocks on a full pipe while it ends.
    DispatchQueue.global().async { _ = stderr.fileHandleForReading.readDataToEndOfFile() }
    process.waitUntilExit()
    card.remove()
    let reported = watcher.last.flatMap { $0 <= output ? milliseconds(output - $0) : nil }
    return TapTiming(whole: milliseconds(output - start), sinceReport: reported)
}
