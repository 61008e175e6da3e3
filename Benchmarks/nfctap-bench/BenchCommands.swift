// Subcommands of nfctap-bench that scripts/bench.sh runs as separate processes, so CPU and frames
// can be told apart per process (emulator, reader, daemon) and the peers (nfcpy, libnfc's tools)
// talk to the same emulated PN532 as nfctap. Without arguments nfctap-bench prints its table.
#if canImport(Glibc)
// `stdout` is a C global (shared mutable state to Swift 6): only flushed here.
@preconcurrency import Glibc
#endif
import Foundation
import NDEF
import NFCReaders
import NFCTags
import ReaderCore
import TagEmulation
import Synchronization

/// Runs `nfctap-bench <subcommand> …` and exits; returns when no subcommand was given.
func runSubcommandIfAsked() {
    let args = Array(CommandLine.arguments.dropFirst())
    guard let command = args.first else { return }
    let rest = Array(args.dropFirst())
    switch command {
    case "corpus": writeCorpus(path: rest.first ?? "corpus.bin")
    case "decode": decodeThroughput(path: rest.first ?? "corpus.bin", seconds: rest.dropFirst().first.flatMap(Double.init) ?? 3)
    case "serve-pn532":
        servePN532(link: rest.first.flatMap { $0.isEmpty ? nil : $0 }, latencyMs: rest.dropFirst().first.flatMap(Int.init) ?? 5,
                   empty: rest.dropFirst(2).first == "empty")
    case "read-libnfc": readThroughLibNFC(connstring: rest.first ?? "", rounds: rest.dropFirst().first.flatMap(Int.init) ?? 5)
    case "cli-paths": cliPathTable(nfctap: rest.first ?? "")
    case "tap-latency": printTable(sessionLatencyBenchmarkRows())
    case "tap-to-output": tapToOutputTable(nfctap: rest.first ?? "", pyscard: rest.dropFirst().first ?? "")
    case "exit-after-invalidate": exitAfterInvalidate(afterRead: rest.first == "--read")
    case "idle-pcsc": idleCPU(backend: PCSCBackend(), seconds: rest.first.flatMap(Double.init) ?? 15)
    case "fleet":  // PORT [records] [stations] [records per station] [latency samples] (FleetBenchmark.swift)
        fleetBenchmark(port: rest.first.flatMap(Int.init) ?? 1883, records: rest.dropFirst().first.flatMap(Int.init) ?? 20_000,
                       stations: rest.dropFirst(2).first.flatMap(Int.init) ?? 20,
                       perStation: rest.dropFirst(3).first.flatMap(Int.init) ?? 1000,
                       latencySamples: rest.dropFirst(4).first.flatMap(Int.init) ?? 500)
    case "idle-libnfc":
        idleCPU(backend: LibNFCBackend(devices: [rest.first ?? ""], environment: [:]),
                seconds: rest.dropFirst().first.flatMap(Double.init) ?? 30)
    default:
        FileHandle.standardError.write(Data("nfctap-bench: unknown subcommand \(command)\n".utf8))
        exit(2)
    }
    exit(0)
}

// MARK: - The tag every peer reads

/// The NTAG213 of the peer comparison: a Zebra-like URI record plus a Text record (≈ 120 bytes).
func benchNTAG213() -> VirtualType2Tag {
    let message = (try? NDEFMessage(records: [
        .uri("https://www.zebra.com/apps/r/nfc?mE=000000000000&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336"),
        try .text("nfctap bench", language: "en"),
    ]).encoded()) ?? []
    return (try? VirtualType2Tag(product: .ntag213, uid: VirtualType2Tag.defaultUID, ndef: message)) ?? .blankNTAG213()
}

// MARK: - PN532 emulator as a separate process

/// Serves the bench NTAG213 on a pseudo-terminal (and `link`, a symlink to it, if given) with
/// `latencyMs` per tag exchange (`empty`: no tag in the field). Prints `path <pty>`; then reads lines from stdin: `stats` prints
/// `frames F exchanges E cpu S` (the emulator's PN532 frames, tag exchanges and this process's
/// CPU seconds), `reset` zeroes the counters, `log` prints the last 40 PN532 commands; end of input stops it.
func servePN532(link: String?, latencyMs: Int, empty: Bool) {
    let plan = FaultPlan(latency: .milliseconds(latencyMs))
    let emulator = PN532Emulator(tag: empty ? nil : benchNTAG213(), plan: plan, linkPath: link)
    guard let path = try? emulator.start() else {
        print("error could not start the emulator")
        exit(1)
    }
    print("path \(path)")
    fflush(stdout)
    while let line = readLine() {
        switch line.trimmingCharacters(in: .whitespaces) {
        case "stats": print("frames \(emulator.framesReceived) exchanges \(plan.exchangeCount) cpu \(processCPUSeconds())")
        case "reset":
            emulator.resetCounters()
            plan.reset()
            print("ok")
        case "log": print("log " + emulator.commandLog.suffix(40).map { $0.hexString(separator: "") }.joined(separator: " "))
        default: print("?")
        }
        fflush(stdout)
    }
    emulator.stop()
}

/// nfctap's NDEF read through `LibNFCBackend` (as `nfctap scan` does for a libnfc reader): one
/// warm-up read, then `rounds` reads each with detect + connect + readNDEF. Prints
/// `ms_per_read M bytes B` on success.
func readThroughLibNFC(connstring: String, rounds: Int) {
    let backend = LibNFCBackend(devices: [connstring], environment: [:])
    let reader = ReaderInfo(name: "libnfc:\(connstring)", backend: .libnfc)
    func once() throws -> [UInt8] {
        guard let tag = try backend.detectTag(on: reader) else { throw TagError.tagLost }
        let connection = try backend.connect(to: tag, exclusive: true)
        defer { connection.disconnect() }
        return try connection.ndefOperations().readNDEF()
    }
    do {
        let expected = try once()
        print("warm")
        fflush(stdout)
        // The caller resets the emulator's counters between "warm" and the timed reads.
        _ = readLine()
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0 ..< rounds where try once() != expected { throw TagError.malformedReply("reads differ") }
        }
        print("ms_per_read \(milliseconds(elapsed) / Double(rounds)) bytes \(expected.count)")
    } catch {
        print("error \(error)")
    }
    backend.close()
}

// MARK: - Idle CPU of a waiting reader

/// Starts the backend's monitor (what a session waits on) with no tag, lets it settle for 1 s,
/// then prints `cpu_percent P seconds S events N` over `seconds`.
func idleCPU(backend: ReaderBackend, seconds: Double) {
    let counter = EventCounter()
    guard let monitor = try? backend.startMonitoring({ _ in counter.add() }) else {
        print("error the backend could not start monitoring")
        return
    }
    Thread.sleep(forTimeInterval: 1)
    let before = processCPUSeconds()
    Thread.sleep(forTimeInterval: seconds)
    let used = processCPUSeconds() - before
    monitor.stop()
    print("cpu_percent \(used / seconds * 100) seconds \(seconds) events \(counter.count)")
}

final class EventCounter: Sendable {
    private let n = Mutex(0)
    func add() { n.withLock { $0 += 1 } }
    var count: Int { n.withLock { $0 } }
}

/// User + system CPU seconds of this process (getrusage).
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}
