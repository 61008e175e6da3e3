import Foundation
import NDEF
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
/// (noticing the card) is common to both; the difference of the medians is the program's own.
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
    var samples: [[Double]] = tools.map { _ in [] }
    var failures: [String] = tools.map { _ in "" }
    var random = SystemRandomNumberGenerator()
    for _ in 0..<taps {
        for (index, tool) in tools.enumerated() {
            do {
                samples[index].append(try timeOneTap(tool.command, ready: tool.ready,
                                                     phase: Double.random(in: 0..<0.4, using: &random)))
            } catch {
                failures[index] = "\(error)"
            }
        }
    }
    print("| program | taps | median ms | p90 ms | min ms |")
    print("|---|---|---|---|---|")
    for (index, tool) in tools.enumerated() {
        let values = samples[index].sorted()
        guard !values.isEmpty else {
            print("| \(tool.name) | 0 | – | – | failed: \(failures[index]) |")
            continue
        }
        let p90 = values[min(values.count - 1, values.count * 9 / 10)]
        print("| \(tool.name) | \(values.count) | \(oneDecimal(middle(values))) | \(oneDecimal(p90)) | \(oneDecimal(values[0])) |")
    }
    if samples.allSatisfy({ !$0.isEmpty }) {
        let difference = middle(samples[0]) - middle(samples[1])
        print()
        print("Median difference (nfctap − pyscard): \(oneDecimal(difference)) ms over \(taps) taps each.")
    }
}

private func middle(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

private func oneDecimal(_ value: Double) -> String { String(format: "%.1f", value) }

private struct TapFailure: Error, CustomStringConvertible {
    var description: String
}

/// Starts `command`, waits for `ready` on its stderr, waits `phase` seconds, inserts the card and
/// returns the milliseconds until the first byte on stdout.
private func timeOneTap(_ command: [String], ready: String, phase: Double) throws -> Double {
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
    let tag = VirtualType4Tag(version: .v2, ndef: (try? NDEFMessage(records: [.uri("https://nfctap.dev/t")]).encoded()) ?? [])
    let card = VPCDCard(behaviour: EmulatedPCSCReader(profile: .generic, tag: tag))
    try card.insert()
    let start = ContinuousClock.now
    defer { card.stop() }
    let first = stdout.fileHandleForReading.availableData
    let elapsed = ContinuousClock.now - start
    guard !first.isEmpty else { throw TapFailure(description: "\(command[0]) printed nothing: \(seen)") }
    // Drain stderr so the program never blocks on a full pipe while it ends.
    DispatchQueue.global().async { _ = stderr.fileHandleForReading.readDataToEndOfFile() }
    process.waitUntilExit()
    card.remove()
    let (seconds, attoseconds) = elapsed.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}
