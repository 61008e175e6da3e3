// libnfc backend through the PN532 emulator: frames and time per NTAG213 read with 5 ms per tag
// exchange, libnfc's nfc-mfultralight side by side, tag detection latency and the monitor's idle CPU.
import Foundation
import NFCReaders
import NFCTags
import ReaderCore
import TagEmulation

/// CPU seconds (user + system) of this process's thread named `name`, from /proc.
private func threadCPUSeconds(named name: String) -> Double? {
    guard let tids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    for tid in tids {
        guard let comm = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8),
              comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
              let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return nil }
        return (utime + stime) / ticks
    }
    return nil
}

func libnfcBenchmarkRows() -> [BenchmarkRow] {
    let group = "libnfc (PN532 emulator, 5 ms/exchange)"
    var rows: [BenchmarkRow] = []
    // The NTAG213 every peer reads (BenchCommands.swift): TagEmulation's byte-accurate chip.
    let tag = benchNTAG213()
    let plan = FaultPlan(latency: .milliseconds(5))
    let emulator = PN532Emulator(tag: tag, plan: plan)
    guard let path = try? emulator.start() else {
        return [BenchmarkRow(group: group, name: "PN532 emulator", measured: 0, unit: "", note: "could not open a pty")]
    }
    defer { emulator.stop() }
    let clock = ContinuousClock()

    // 1. nfctap: READ ×12 and FAST_READ ×1 of pages 0-44 through LibNFCType2Link.
    let backend = LibNFCBackend(devices: ["pn532_uart:\(path)"], environment: [:])
    defer { backend.close() }
    let reader = ReaderInfo(name: "libnfc:pn532_uart:\(path)", backend: .libnfc)
    if let detected = try? backend.detectTag(on: reader), let connection = try? backend.connect(to: detected, exclusive: true),
       let link = connection.type2 {
        let rounds = 5
        for (name, read) in [("nfctap READ pages 0-44", { for p in stride(from: 0, through: 44, by: 4) { _ = try link.read(page: p) } }),
                             ("nfctap FAST_READ pages 0-44", { _ = try link.fastRead(from: 0, to: 44) })] as [(String, () throws -> Void)] {
            plan.reset()
            emulator.resetCounters()
            var ok = true
            let elapsed = clock.measure { for _ in 0..<rounds { do { try read() } catch { ok = false } } }
            let exchanges = Double(plan.exchangeCount) / Double(rounds)
            rows.append(BenchmarkRow(group: group, name: "\(name): tag exchanges", measured: exchanges, unit: "exchanges",
                                     minimum: 1, note: ok ? "" : "errors"))
            rows.append(BenchmarkRow(group: group, name: "\(name): PN532 frames", measured: Double(emulator.framesReceived) / Double(rounds),
                                     unit: "frames", minimum: 1))
            rows.append(BenchmarkRow(group: group, name: "\(name): time", measured: milliseconds(elapsed) / Double(rounds), unit: "ms",
                                     minimum: 5, note: "\(rounds) rounds"))
        }
        connection.disconnect()
        // The whole NDEF read as `nfctap scan` does it: detect, connect, GET_VERSION + FAST_READ.
        plan.reset()
        emulator.resetCounters()
        var ok = true
        let elapsed = clock.measure {
            for _ in 0..<rounds {
                do {
                    guard let again = try backend.detectTag(on: reader) else { ok = false; continue }
                    let c = try backend.connect(to: again, exclusive: true)
                    defer { c.disconnect() }
                    _ = try c.ndefOperations().readNDEF()
                } catch { ok = false }
            }
        }
        let name = "nfctap NDEF read (detect + connect + read)"
        rows.append(BenchmarkRow(group: group, name: "\(name): tag exchanges", measured: Double(plan.exchangeCount) / Double(rounds),
                                 unit: "exchanges", minimum: 2, note: ok ? "GET_VERSION + FAST_READ" : "errors"))
        rows.append(BenchmarkRow(group: group, name: "\(name): PN532 frames", measured: Double(emulator.framesReceived) / Double(rounds),
                                 unit: "frames", minimum: 2))
        rows.append(BenchmarkRow(group: group, name: "\(name): time", measured: milliseconds(elapsed) / Double(rounds), unit: "ms",
                                 minimum: 10, note: "\(rounds) rounds"))
    } else {
        rows.append(BenchmarkRow(group: group, name: "nfctap read", measured: 0, unit: "", note: "no tag detected"))
    }
    backend.close()

    // 2. libnfc's nfc-mfultralight r on the same tag (process start, open sequence and all).
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/nfc-mfultralight") {
        plan.reset()
        emulator.resetCounters()
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-bench-\(getpid()).mfd").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nfc-mfultralight")
        process.arguments = ["r", dump]
        process.environment = ["LIBNFC_DEVICE": "pn532_uart:\(path)", "LIBNFC_AUTO_SCAN": "false"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let elapsed = clock.measure {
            if (try? process.run()) != nil { process.waitUntilExit() }
        }
        try? FileManager.default.removeItem(atPath: dump)
        let note = process.terminationStatus == 0 ? "whole process" : "exit \(process.terminationStatus)"
        rows.append(BenchmarkRow(group: group, name: "nfc-mfultralight r: tag exchanges", measured: Double(plan.exchangeCount),
                                 unit: "exchanges", minimum: 1, note: "GET_VERSION + 12 READ"))
        rows.append(BenchmarkRow(group: group, name: "nfc-mfultralight r: PN532 frames", measured: Double(emulator.framesReceived),
                                 unit: "frames", minimum: 1, note: "incl. open/list/close"))
        rows.append(BenchmarkRow(group: group, name: "nfc-mfultralight r: time", measured: milliseconds(elapsed), unit: "ms",
                                 minimum: 5, note: note))
    }

    // 3. Detection latency and idle CPU of the monitor (default timing: poll every 100 ms).
    plan.latency = .zero
    emulator.tag = nil
    let monitored = LibNFCBackend(devices: ["pn532_uart:\(path)"], environment: [:])
    defer { monitored.close() }
    let arrived = DispatchSemaphore(value: 0)
    let left = DispatchSemaphore(value: 0)
    guard let monitor = try? monitored.startMonitoring({ event in
        switch event {
        case .tagArrived: arrived.signal()
        case .tagLeft: left.signal()
        default: break
        }
    }) else { return rows }
    defer { monitor.stop() }
    Thread.sleep(forTimeInterval: 0.5)  // opened, idle
    var latencies: [Double] = []
    for round in 0..<7 {
        let start = clock.now
        emulator.tag = tag
        guard arrived.wait(timeout: .now() + 5) == .success else { break }
        latencies.append(milliseconds(clock.now - start))
        emulator.tag = nil
        _ = left.wait(timeout: .now() + 5)
        Thread.sleep(forTimeInterval: 0.05 + 0.023 * Double(round))  // arrive at varying points of the poll period
    }
    latencies.sort()
    if !latencies.isEmpty {
        rows.append(BenchmarkRow(group: group, name: "tag detection latency (median of \(latencies.count))",
                                 measured: latencies[latencies.count / 2], unit: "ms", minimum: nil,
                                 note: "max \(format(latencies.last!)) ms; poll interval 100 ms"))
    }
    let seconds = 3.0
    let threadBefore = threadCPUSeconds(named: "LibNFCMonitor")
    let processBefore = processCPUSeconds()
    Thread.sleep(forTimeInterval: seconds)
    let processCPU = (processCPUSeconds() - processBefore) / seconds * 100
    if let before = threadBefore, let after = threadCPUSeconds(named: "LibNFCMonitor") {
        rows.append(BenchmarkRow(group: group, name: "monitor idle CPU (monitor thread)", measured: (after - before) / seconds * 100,
                                 unit: "% of a core", note: "empty field, \(Int(seconds)) s, /proc thread times (resolution \(format(1 / Double(sysconf(Int32(_SC_CLK_TCK))) / seconds * 100)) %)"))
    }
    rows.append(BenchmarkRow(group: group, name: "monitor idle CPU (whole process)", measured: processCPU, unit: "% of a core",
                             note: "getrusage: monitor + emulator threads"))
    return rows
}
