import CoreNFCLinux
import Foundation
import NFCReaders
import TagEmulation

/// Tap latency through the real pcscd: from the moment a vpcd card connects (the tag "arrives"
/// at pcscd) to the delegate's `readerSession(_:didDetectNDEFs:)`, over N taps of a Type 4 tag on
/// `Virtual PCD 00 00`, in a multi-read `NFCNDEFReaderSession` (the engine every command uses).
///
/// Also split out: connect → a PC/SC monitor's `tagArrived` (pcscd's own polling: vpcd is asked
/// for the ATR about every 400 ms, so this part is up to 400 ms plus power-up and GET UID, and
/// dominates; each card connects at a random point of the cycle, as a real tap would), then
/// arrival → callback (the session's batch window, 100 ms by default, measured again with 0,
/// plus the NDEF read: each APDU through pcscd + vpcd costs tens of ms).
///
/// Needs the private pcscd of scripts/services/pcscd.sh (`PCSCLITE_CSOCK_NAME`, vpcd on
/// `NFCTAP_VPCD_PORT`); without it the rows are skipped with a note on stderr.
/// `NFCTAP_BENCH_TAPS` sets N (default 20).
func sessionLatencyBenchmarkRows() -> [BenchmarkRow] {
    let reader = "Virtual PCD 00 00"
    guard ProcessInfo.processInfo.environment["PCSCLITE_CSOCK_NAME"] != nil,
          let readers = try? PCSCBackend().listReaders(), readers.contains(where: { $0.name == reader }) else {
        FileHandle.standardError.write(Data("""
            nfctap-bench: session latency skipped: no private pcscd with vpcd (set PCSCLITE_CSOCK_NAME: \
            run it under scripts/services/pcscd.sh's start_pcscd, as scripts/test.sh does)\n
            """.utf8))
        return []
    }
    let taps = max(20, Int(ProcessInfo.processInfo.environment["NFCTAP_BENCH_TAPS"] ?? "") ?? 20)
    var rows: [BenchmarkRow] = []
    for window in [Duration.milliseconds(100), .zero] {
        let ms = Int(window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000)
        switch measureTaps(taps, reader: reader, batchWindow: window) {
        case let .success(samples):
            let group = "session latency, pcscd + vpcd (batch window \(ms) ms)"
            rows += percentileRows(group: group, name: "vpcd connect → didDetectNDEFs", samples.toCallback, taps: taps,
                                   note: "pcscd polls vpcd ~every 400 ms")
            rows += percentileRows(group: group, name: "vpcd connect → monitor tagArrived", samples.toArrival, taps: taps,
                                   note: "pcscd's poll + GET UID")
            rows += percentileRows(group: group, name: "tagArrived → didDetectNDEFs", samples.arrivalToCallback, taps: taps,
                                   note: "batch window + connect + NDEF read + queue hops")
            let exchanges = samples.readExchanges.sorted()[samples.readExchanges.count / 2]
            rows.append(BenchmarkRow(group: group, name: "NDEF read exchanges per tap", measured: exchanges, unit: "exchanges",
                                     minimum: 5, note: "Type 4 v2, 18-byte message: SELECT app, SELECT CC, READ CC, SELECT NDEF, READ"))
        case let .failure(problem):
            FileHandle.standardError.write(Data("nfctap-bench: session latency (window \(ms) ms) failed: \(problem)\n".utf8))
        }
    }
    return rows
}

/// Milliseconds per tap of each span.
private struct TapSamples {
    var toArrival: [Double] = []
    var toCallback: [Double] = []
    var arrivalToCallback: [Double] = []
    /// Exchanges the session's read sent (the two monitors' GET UID not counted).
    var readExchanges: [Double] = []
}

private struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

/// The delegate: records when each message arrives.
private final class LatencyDelegate: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let reads = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var times: [ContinuousClock.Instant] = []
    private(set) var endError: Error?

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        let now = ContinuousClock.now
        lock.withLock { times.append(now) }
        reads.signal()
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
        lock.withLock { endError = error }
        ended.signal()
    }

    var lastRead: ContinuousClock.Instant? { lock.withLock { times.last } }
}

/// Arrival/leave times seen by an independent PC/SC monitor.
private final class ArrivalLog: @unchecked Sendable {
    let arrived = DispatchSemaphore(value: 0)
    let left = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var last: ContinuousClock.Instant?
    let reader: String

    init(reader: String) { self.reader = reader }

    func handle(_ event: ReaderEvent) {
        switch event {
        case let .tagArrived(tag) where tag.reader.name == reader:
            let now = ContinuousClock.now
            lock.withLock { last = now }
            arrived.signal()
        case let .tagLeft(tag) where tag.reader.name == reader:
            left.signal()
        default:
            break
        }
    }

    var lastArrival: ContinuousClock.Instant? { lock.withLock { last } }
}

private func measureTaps(_ taps: Int, reader: String, batchWindow: Duration) -> Result<TapSamples, BenchmarkFailure> {
    let arrivals = ArrivalLog(reader: reader)
    guard let monitor = try? PCSCBackend().startMonitoring({ arrivals.handle($0) }) else {
        return .failure(BenchmarkFailure(description: "cannot monitor pcscd"))
    }
    defer { monitor.stop() }

    var configuration = NFCSessionConfiguration()
    configuration.timeLimit = nil
    configuration.readerFilter = .exactName(reader)
    configuration.readerFeedback = false
    configuration.exclusiveAccess = false  // the observing monitor's GET UID may overlap the read
    configuration.batchWindow = batchWindow
    configuration.alertHandler = { _ in }
    let environment = NFCReaderEnvironment(makeBackends: { [PCSCBackend()] },
                                           makeNDEFOperations: { try $0.ndefOperations() })
    let delegate = LatencyDelegate()
    let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false,
                                       configuration: configuration, environment: environment)
    session.begin()
    defer {
        session.invalidate()
        _ = delegate.ended.wait(timeout: .now() + 5)
    }

    let message = VirtualType4Tag.sampleURIMessage
    var samples = TapSamples()
    var random = SystemRandomNumberGenerator()
    for tap in 0..<taps {
        // A real tap lands at any point of pcscd's poll cycle; right after the removal was seen
        // it would always land at the same point.
        Thread.sleep(forTimeInterval: Double.random(in: 0..<0.4, using: &random))
        let reader = EmulatedPCSCReader(profile: .generic, tag: VirtualType4Tag(ndef: message))
        let card = VPCDCard(behaviour: reader)
        let start = ContinuousClock.now
        do { try card.insert() } catch {
            return .failure(BenchmarkFailure(description: "tap \(tap): vpcd refused the card: \(error)"))
        }
        guard delegate.reads.wait(timeout: .now() + 10) == .success, let read = delegate.lastRead else {
            card.remove()
            let reason = delegate.endError.map { "the session ended: \($0)" } ?? "no didDetectNDEFs within 10 s"
            return .failure(BenchmarkFailure(description: "tap \(tap): \(reason)"))
        }
        guard arrivals.arrived.wait(timeout: .now() + 10) == .success, let arrival = arrivals.lastArrival else {
            card.remove()
            return .failure(BenchmarkFailure(description: "tap \(tap): the monitor saw no arrival"))
        }
        samples.toCallback.append(elapsedMilliseconds(read - start))
        samples.toArrival.append(elapsedMilliseconds(arrival - start))
        samples.arrivalToCallback.append(elapsedMilliseconds(read - arrival))
        samples.readExchanges.append(Double(reader.plan.exchangeCount - 2))
        // The next tap must be a new presence: wait until pcscd has noticed the removal.
        card.remove()
        guard arrivals.left.wait(timeout: .now() + 10) == .success else {
            return .failure(BenchmarkFailure(description: "tap \(tap): the card never left"))
        }
    }
    return .success(samples)
}

private func elapsedMilliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

/// Median, p90 (nearest rank) and max of `values` as three rows.
private func percentileRows(group: String, name: String, _ values: [Double], taps: Int, note: String) -> [BenchmarkRow] {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return [] }
    func rank(_ p: Double) -> Double { sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))] }
    let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    return [
        BenchmarkRow(group: group, name: "\(name), median", measured: median, unit: "ms", minimum: nil, note: "N=\(taps); \(note)"),
        BenchmarkRow(group: group, name: "\(name), p90", measured: rank(0.9), unit: "ms", minimum: nil, note: "N=\(taps)"),
        BenchmarkRow(group: group, name: "\(name), max", measured: sorted[sorted.count - 1], unit: "ms", minimum: nil, note: "N=\(taps)"),
    ]
}
