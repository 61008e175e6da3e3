import CoreNFCLinux
import Foundation
import NDEF
import ReaderCore
import Synchronization
import TagEmulation
import Testing
import NFCTapKit
import TestSupport

/// Collects what a `KioskRunner` reports (events and log lines) and lets a test wait, without
/// blocking a thread, for what it expects next. Deadlines only keep a broken build from hanging
/// the run; they are never what a test asserts.
package final class KioskRecorder: Sendable {
    private struct Waiter {
        var done: @Sendable ([KioskEvent], [String]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var events: [KioskEvent] = []
        var lines: [String] = []
        var waiters: [UUID: Waiter] = [:]
    }

    private let state = Mutex(State())

    package var observe: @Sendable (KioskEvent) -> Void {
        { [self] event in changed { $0.events.append(event) } }
    }

    package var sink: @Sendable (String) -> Void {
        { [self] line in changed { $0.lines.append(String(line.dropLast())) } }
    }

    private func changed(_ update: (inout (events: [KioskEvent], lines: [String])) -> Void) {
        let ready: [CheckedContinuation<Bool, Never>] = state.withLock { state in
            var both = (events: state.events, lines: state.lines)
            update(&both)
            (state.events, state.lines) = both
            let due = state.waiters.filter { $0.value.done(state.events, state.lines) }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for c in ready { c.resume(returning: true) }
    }

    package var events: [KioskEvent] { state.withLock { $0.events } }
    /// Log lines without their newline.
    package var lines: [String] { state.withLock { $0.lines } }

    /// Suspends until `done` holds for the events and lines so far.
    package func until(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
               _ done: @escaping @Sendable ([KioskEvent], [String]) -> Bool) async {
        let id = UUID()
        let met = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            let now: Bool = state.withLock {
                if done($0.events, $0.lines) { return true }
                $0.waiters[id] = Waiter(done: done, continuation: c)
                return false
            }
            if now {
                c.resume(returning: true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { [self] in
                let late = state.withLock { $0.waiters.removeValue(forKey: id) }
                late?.continuation.resume(returning: false)
            }
        }
        if !met { Issue.record("waited in vain for \(what); saw \(events) and \(lines)", sourceLocation: sourceLocation) }
    }

    /// Waits until `count` events satisfy `match`.
    package func wait(for what: String, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation,
              _ match: @escaping @Sendable (KioskEvent) -> Bool) async {
        await until("\(count) × \(what)", sourceLocation: sourceLocation) { events, _ in events.filter(match).count >= count }
    }

    /// Waits until a log line equal to `line` was written.
    package func waitForLine(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        await until("log line \(line)", sourceLocation: sourceLocation) { _, lines in lines.contains(line) }
    }

    /// Waits for the `n`th tap in all (1-based).
    package func waitForTaps(_ n: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await wait(for: "tap", count: n, sourceLocation: sourceLocation) { if case .tap = $0 { true } else { false } }
    }

    package func waitForReader(_ name: String, added: Bool, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async {
        await wait(for: added ? "readerAdded \(name)" : "readerRemoved \(name)", count: count, sourceLocation: sourceLocation) {
            switch $0 {
            case let .readerAdded(n): return added && n == name
            case let .readerRemoved(n): return !added && n == name
            default: return false
            }
        }
    }

    package var taps: [(uid: String, succeeded: Bool, duplicate: Bool)] {
        events.compactMap { if case let .tap(uid, _, ok, dup) = $0 { (uid, ok, dup) } else { nil } }
    }
}

/// Time the runner sees, moved by the test.
package final class KioskTestClock: Sendable {
    private let current = Mutex(ContinuousClock.now)

    package var now: ContinuousClock.Instant { current.withLock { $0 } }
    package func advance(_ d: Duration) { current.withLock { $0 += d } }
}

/// A `KioskRunner` over a `VirtualReaderBackend`, running in a task.
package final class KioskHarness: Sendable {
    package let backend: VirtualReaderBackend
    package let recorder = KioskRecorder()
    package let clock = KioskTestClock()
    package let runner: KioskRunner
    /// Every backoff delay the runner asked for.
    package let delays = Locked<[Duration]>([])
    private let running = Mutex<Task<Void, Never>?>(nil)

    package static let reader = "Kiosk Reader A"

    /// - Parameters:
    ///   - onSleep: called with each backoff delay (after it is recorded), before the sleep returns.
    package init(_ configuration: KioskConfiguration, readers: [String] = [KioskHarness.reader], quiet: Bool = false,
         makeAction: (@Sendable (KioskConfiguration) throws -> any KioskAction)? = nil,
         onSleep: @escaping @Sendable (Duration) -> Void = { _ in }) throws {
        let backend = VirtualReaderBackend(readerNames: readers)
        self.backend = backend
        let recorder = self.recorder, clock = self.clock, delays = self.delays
        runner = try KioskRunner(
            configuration: configuration, logger: KioskLog.logger(level: configuration.logLevel, sink: recorder.sink),
            quiet: quiet,
            dependencies: KioskRunner.Dependencies(
                makeBackends: { _ in [backend] },
                makeAction: makeAction ?? { try $0.makeAction() },
                now: { clock.now },
                sleep: { delay in
                    delays.withLock { $0.append(delay) }
                    onSleep(delay)
                },
                observe: recorder.observe))
    }

    /// Starts the runner; returns once its readers are there (when `waitForReaders`).
    package func start(waitForReaders: [String] = [KioskHarness.reader]) async {
        let runner = self.runner
        running.withLock { $0 = Task { await runner.run() } }
        for name in waitForReaders { await recorder.waitForReader(name, added: true) }
    }

    /// Places `tag` and waits until the kiosk handled it (the `n`th tap in all), then takes it away.
    package func tap(_ tag: VirtualTag, on reader: String = KioskHarness.reader, expectTap n: Int,
             sourceLocation: SourceLocation = #_sourceLocation) async {
        backend.place(tag, on: reader)
        await recorder.waitForTaps(n, sourceLocation: sourceLocation)
        backend.remove(from: reader)
    }

    /// Stops the runner and waits until `run()` returned (every feedback is given by then).
    package func stop() async {
        runner.stop()
        await recorder.wait(for: "stopped") { if case .stopped = $0 { true } else { false } }
        await running.withLock { $0 }?.value
    }

    package var feedback: [ReaderFeedback] { backend.feedbackLog.map(\.feedback) }
}

/// Test tags, each with its own UID.
package enum KioskTags {
    package static func uid(_ n: UInt8) -> [UInt8] { [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, n] }

    package static func uri(_ uri: String, uid n: UInt8) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: uid(n), ndef: try NDEFMessage(records: [.uri(uri)]).encoded())
    }

    package static func zebra(uid n: UInt8) -> VirtualType2Tag { .zebraZQ320(uid: uid(n)) }

    package static func text(_ text: String) throws -> VirtualType4Tag {
        VirtualType4Tag(version: .v2, ndef: try NDEFMessage(records: [try .text(text, language: "en")]).encoded())
    }
}

/// A fresh directory for one kiosk test.
package func kioskDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-kiosk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The JSON lines of a file, parsed.
package func jsonLines(_ path: String) throws -> [[String: Any]] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

/// A configuration from JSON text; programs are looked up for real.
package func kioskConfiguration(_ json: String) throws -> KioskConfiguration {
    try KioskConfiguration.parse(Data(json.utf8), source: "test.json")
}
