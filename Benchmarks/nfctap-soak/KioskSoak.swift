import CoreNFCLinux
import Foundation
import Logging
import NDEF
import NFCTapKit
import ReaderCore
import Synchronization
import TagEmulation

/// `nfctap-soak N` (scripts/soak.sh): the kiosk's runner under N virtual taps in this
/// process, with a reader unplugged and plugged back every `replugEvery` taps and the reader
/// service lost and restored every `serviceCycleEvery`; samples RSS, fds and threads every
/// `sampleEvery` taps and judges them flat after warm-up.
///
/// Every tap must give exactly one JSON line and a successful action; growth fails the run.
/// Reader feedback is off unless `feedback`: the virtual backend records every LED signal in
/// `feedbackLog` (~24 bytes a tap, in steps as the array doubles), which would be measured as
/// the kiosk's growth. Feedback itself is covered by the runner tests.
struct KioskSoak {
    var taps: Int
    var sampleEvery: Int
    /// Give reader feedback (and count the greens) during the soak.
    var feedback: Bool
    var replugEvery = 300
    var serviceCycleEvery = 1000

    init(taps: Int, sampleEvery: Int, feedback: Bool, replugEvery: Int = 300, serviceCycleEvery: Int = 1000) {
        self.taps = taps
        self.sampleEvery = sampleEvery
        self.feedback = feedback
        self.replugEvery = replugEvery
        self.serviceCycleEvery = serviceCycleEvery
    }

    static let readerA = "Soak Reader A"
    static let readerB = "Soak Reader B"

    /// Runs the soak, prints the samples and a verdict on stdout; true = PASS.
    func run() -> Bool {
        let started = ContinuousClock.now
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let outputPath = "\(directory)/nfctap-soak-\(getpid()).jsonl"
        defer { unlink(outputPath) }

        let backend = VirtualReaderBackend(readerNames: [Self.readerA, Self.readerB])
        let events = SoakEvents()
        var configuration = KioskConfiguration()
        configuration.output = .file(outputPath)
        configuration.sync = false
        configuration.feedback = feedback
        configuration.logLevel = .warning
        let logger = KioskLog.logger(label: "nfctap.kiosk.soak", level: .warning)
        let runner: KioskRunner
        do {
            runner = try KioskRunner(
                configuration: configuration, logger: logger,
                dependencies: KioskRunner.Dependencies(makeBackends: { _ in [backend] },
                                                       makeAction: { try $0.makeAction() },
                                                       observe: events.record))
        } catch {
            print("soak: cannot start: \(error)")
            return false
        }
        let finished = DispatchSemaphore(value: 0)
        Task {
            await runner.run()
            finished.signal()
        }
        guard events.waitForReaders([Self.readerA, Self.readerB]) else {
            print("soak: the readers never appeared")
            runner.stop()
            return false
        }

        let tags = SoakTags()
        var samples: [(taps: Int, sample: ProcessSample)] = [(0, ProcessSample.now())]
        var failures: [String] = []
        for i in 1...taps {
            let reader = i % 2 == 0 ? Self.readerA : Self.readerB
            let tapIndex = events.tapCount
            backend.place(tags.tag(i), on: reader)
            guard events.waitForTap(after: tapIndex) else {
                failures.append("tap \(i) on \(reader) was never handled")
                break
            }
            backend.remove(from: reader)
            // The emulated reader logs every command it carries (test instrumentation): clear it,
            // or the soak measures the emulator's log instead of the kiosk.
            backend.reader(named: reader)?.plan.reset()
            if i % replugEvery == 0 {
                backend.removeReader(Self.readerB)
                backend.addReader(Self.readerB)
                if !events.waitForReaders([Self.readerB]) { failures.append("reader B did not come back after tap \(i)"); break }
            }
            if i % serviceCycleEvery == 0 {
                backend.loseService()
                backend.restoreService()
                if !events.waitForReaders([Self.readerA, Self.readerB]) { failures.append("readers did not come back after the service at tap \(i)"); break }
            }
            if i % sampleEvery == 0 { samples.append((i, ProcessSample.now())) }
        }
        runner.stop()
        finished.wait()

        let lines = ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").split(separator: "\n").count
        let greens = backend.feedbackLog.filter { if case .success = $0.feedback { return true } else { return false } }.count
        let handled = events.tapCount
        let elapsed = ContinuousClock.now - started
        if failures.isEmpty {
            if handled != taps { failures.append("\(handled) taps handled, expected \(taps)") }
            if lines != taps { failures.append("\(lines) JSON lines written, expected \(taps)") }
            if feedback, greens != taps { failures.append("\(greens) green signals, expected \(taps)") }
            if events.failedTaps > 0 { failures.append("\(events.failedTaps) taps failed") }
        }
        let verdict = SoakVerdict(samples: samples.map(\.sample))
        failures += verdict.problems

        print("soak: \(taps) taps, \(runner.sessionsStarted) session(s), reader B replugged every \(replugEvery) taps, service lost/restored every \(serviceCycleEvery)")
        print("    taps    rss_kib    fds  threads")
        for (n, s) in samples {
            print(String(format: "%8d %10d %6d %8d", n, s.rssKiB, s.openFiles, s.threads))
        }
        // What was checked, with the numbers: taps handled, lines written, failed actions, greens
        // (only with feedback on), then the resource deltas the verdict judged.
        let greensText = feedback ? ", \(greens)/\(taps) greens" : " (reader feedback off: greens not counted)"
        print("soak: \(handled)/\(taps) taps handled, \(lines)/\(taps) JSON lines, \(events.failedTaps) failed actions\(greensText); "
              + "\(String(format: "%.1f", elapsed.timeInterval)) s (\(String(format: "%.2f", elapsed.timeInterval * 1000 / Double(max(taps, 1)))) ms/tap)")
        print(verdict.summary)
        let checked = "\(taps) taps, \(lines) lines; \(verdict.deltas)"
        if failures.isEmpty {
            print("PASS: \(checked)")
            return true
        }
        for f in failures { print("FAIL: \(f)") }
        return false
    }
}


/// The soak's taps: a Zebra printer tag, an NTAG213 with a URI, a Type 4 tag with text, in turn,
/// each with its own UID.
final class SoakTags {
    private let uriMessage: [UInt8]
    private let textMessage: [UInt8]

    init() {
        uriMessage = (try? NDEFMessage(records: [.uri("https://example.com/soak")]).encoded()) ?? []
        textMessage = (try? NDEFMessage(records: [try .text("soak", language: "en")]).encoded()) ?? []
    }

    func tag(_ i: Int) -> VirtualTag {
        let uid: [UInt8] = [0x04, UInt8(truncatingIfNeeded: i >> 16), UInt8(truncatingIfNeeded: i >> 8),
                            UInt8(truncatingIfNeeded: i), 0x5A, 0x80, 0x00]
        switch i % 3 {
        case 0: return VirtualType2Tag.zebraZQ320(uid: uid)
        case 1: return (try? VirtualType2Tag(product: .ntag213, uid: uid, ndef: uriMessage)) ?? VirtualType2Tag.blankNTAG213(uid: uid)
        default: return VirtualType4Tag(version: .v2, ndef: textMessage)
        }
    }
}

/// The runner's events, counted, with waits for the soak's steps. The deadline only keeps a
/// broken build from hanging the run.
final class SoakEvents: Sendable {
    private let counts = Mutex(Counts())

    private struct Counts: WaitableState {
        var readers: Set<String> = []
        var taps = 0
        var failed = 0
        /// Threads waiting for a count.
        var waiters = StateWaiters()
    }

    var record: @Sendable (KioskEvent) -> Void {
        { [self] event in
            counts.change { counts in
                switch event {
                case let .readerAdded(name): counts.readers.insert(name)
                case let .readerRemoved(name): counts.readers.remove(name)
                case let .tap(_, _, succeeded, _):
                    counts.taps += 1
                    if !succeeded { counts.failed += 1 }
                default: break
                }
            }
        }
    }

    /// How long a wait lasts at most.
    private var deadline: DispatchTime { .now() + 30 }

    var tapCount: Int { counts.withLock { $0.taps } }
    var failedTaps: Int { counts.withLock { $0.failed } }

    func waitForTap(after count: Int) -> Bool {
        counts.wait(until: deadline) { $0.taps > count }
    }

    func waitForReaders(_ names: [String]) -> Bool {
        counts.wait(until: deadline) { counts in names.allSatisfy(counts.readers.contains) }
    }
}
