import CoreNFCLinux
import Foundation
import NFCReaders
import NFCTags
import ReaderCore
import TagEmulation
import Synchronization

/// Tap latency through the real pcscd: from the moment a vpcd card connects (the tag "arrives"
/// at pcscd) to the delegate's `readerSession(_:didDetectNDEFs:)`, over N taps of a Type 4 tag on
/// `Virtual PCD 00 00`, in a multi-read `NFCNDEFReaderSession` (the engine every command uses),
/// with the default configuration (100 ms batch window, not waited for with a single reader).
///
/// Split into what happens one after the other, timed by a wrapper around the session's own
/// PC/SC backend: pcscd noticing the card (it asks vpcd for the ATR about every 400 ms, so up to
/// 400 ms plus power-up; each card connects at a random point of the cycle, as a real tap would)
/// and the monitor's GET UID, up to the session's `tagArrived`; then the engine until it connects
/// (batch window, queue hops); SCardConnect; the NDEF read (the APDUs); and delivery (decode,
/// report, disconnect, the delegate's queue).
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
    switch measureTaps(taps, reader: reader) {
    case let .success(samples):
        let group = "tap → callback, pcscd + vpcd"
        rows += percentileRows(group: group, name: "vpcd connect → didDetectNDEFs", samples.toCallback, taps: taps,
                               note: "the whole tap")
        let parts: [(String, [Double], String)] = [
            ("1. pcscd notices the card + GET UID (→ session's tagArrived)", samples.toArrival,
             "pcscd polls vpcd ~every 400 ms: not nfctap's"),
            ("2. tagArrived → connect starts", samples.arrivalToConnect, "engine queue hops; no batch window with one reader"),
            ("3. SCardConnect", samples.connect, "pcscd + vpcd power-up"),
            ("4. NDEF read", samples.read, "the minimum 5 APDUs"),
            ("5. last APDU → didDetectNDEFs", samples.delivery, "decode, report, disconnect, delegate queue"),
        ]
        for (name, values, note) in parts {
            rows.append(BenchmarkRow(group: group, name: "\(name), median", measured: median(values), unit: "ms",
                                     minimum: nil, note: "N=\(taps); \(note)"))
        }
        rows.append(BenchmarkRow(group: group, name: "one APDU through pcscd + vpcd, median", measured: median(samples.perAPDU),
                                 unit: "ms", minimum: nil, note: "N=\(samples.perAPDU.count) APDUs"))
        let exchanges = samples.readExchanges.sorted()[samples.readExchanges.count / 2]
        rows.append(BenchmarkRow(group: group, name: "NDEF read exchanges per tap", measured: exchanges, unit: "exchanges",
                                 minimum: 5, note: "Type 4 v2, 18-byte message: SELECT app, SELECT CC, READ CC, SELECT NDEF, READ"))
    case let .failure(problem):
        FileHandle.standardError.write(Data("nfctap-bench: session latency failed: \(problem)\n".utf8))
    }
    return rows
}

/// Milliseconds per tap of each span.
private struct TapSamples {
    var toCallback: [Double] = []
    var toArrival: [Double] = []
    var arrivalToConnect: [Double] = []
    var connect: [Double] = []
    var read: [Double] = []
    var delivery: [Double] = []
    var perAPDU: [Double] = []
    /// Exchanges the session's read sent (the monitor's GET UID not counted).
    var readExchanges: [Double] = []
}

private struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

/// When things happened in the session's backend during one tap.
private final class TapTimes: Sendable {
    private struct Times {
        var arrived: ContinuousClock.Instant?
        var connectStart: ContinuousClock.Instant?
        var connectEnd: ContinuousClock.Instant?
        var lastReply: ContinuousClock.Instant?
        var apdus: [Double] = []
    }

    private let times = Mutex(Times())

    func reset() { times.withLock { $0 = Times() } }
    func tagArrived() { let now = ContinuousClock.now; times.withLock { if $0.arrived == nil { $0.arrived = now } } }
    func connecting() { let now = ContinuousClock.now; times.withLock { $0.connectStart = now } }
    func connected() { let now = ContinuousClock.now; times.withLock { $0.connectEnd = now } }
    func exchanged(_ duration: Duration) {
        let now = ContinuousClock.now
        times.withLock { $0.lastReply = now; $0.apdus.append(elapsedMilliseconds(duration)) }
    }

    var snapshot: (arrived: ContinuousClock.Instant, connectStart: ContinuousClock.Instant,
                   connectEnd: ContinuousClock.Instant, lastReply: ContinuousClock.Instant, apdus: [Double])? {
        times.withLock { t in
            guard let arrived = t.arrived, let connectStart = t.connectStart, let connectEnd = t.connectEnd,
                  let lastReply = t.lastReply else { return nil }
            return (arrived, connectStart, connectEnd, lastReply, t.apdus)
        }
    }
}

/// The session's PC/SC backend, timed: its monitor's `tagArrived`, `connect`, every APDU.
private final class TimedBackend: ReaderBackend, Sendable {
    let base = PCSCBackend()
    let times: TapTimes
    var kind: ReaderBackendKind { base.kind }

    init(times: TapTimes) { self.times = times }

    func listReaders() throws(ReaderError) -> [ReaderInfo] { try base.listReaders() }

    func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws(ReaderError) -> any ReaderMonitor {
        let times = self.times
        return try base.startMonitoring { event in
            if case .tagArrived = event { times.tagArrived() }
            handler(event)
        }
    }

    func connect(to tag: DetectedTag, exclusive: Bool) throws(ReaderError) -> any TagConnection {
        times.connecting()
        let connection = try base.connect(to: tag, exclusive: exclusive)
        times.connected()
        return TimedConnection(base: connection, times: times)
    }
}

private final class TimedConnection: TagConnection {
    let base: any TagConnection
    let channel: TimedTransceiver?
    init(base: any TagConnection, times: TapTimes) {
        self.base = base
        channel = base.apdu.map { TimedTransceiver(base: $0, times: times) }
    }
    var tag: DetectedTag { base.tag }
    var apdu: (any Transceiver)? { channel }
    var type2: (any Type2Link)? { base.type2 }
    func signal(_ feedback: ReaderFeedback) { base.signal(feedback) }
    func disconnect() { base.disconnect() }
}

private final class TimedTransceiver: Transceiver {
    let base: any Transceiver
    let times: TapTimes
    init(base: any Transceiver, times: TapTimes) {
        self.base = base
        self.times = times
    }
    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        let start = ContinuousClock.now
        defer { times.exchanged(.now - start) }
        return try base.transceive(command)
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The delegate: records when each message arrives.
private final class LatencyDelegate: NSObject, NFCNDEFReaderSessionDelegate, Sendable {
    let reads = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    private let state = Mutex<(times: [ContinuousClock.Instant], endError: (any Error)?)>(([], nil))

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        let now = ContinuousClock.now
        state.withLock { $0.times.append(now) }
        reads.signal()
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
        state.withLock { $0.endError = error }
        ended.signal()
    }

    var endError: (any Error)? { state.withLock { $0.endError } }
    var lastRead: ContinuousClock.Instant? { state.withLock { $0.times.last } }
}

/// Arrival/leave times seen by an independent PC/SC monitor.
private final class ArrivalLog: Sendable {
    let arrived = DispatchSemaphore(value: 0)
    let left = DispatchSemaphore(value: 0)
    private let last = Mutex<ContinuousClock.Instant?>(nil)
    let reader: String

    init(reader: String) { self.reader = reader }

    func handle(_ event: ReaderEvent) {
        switch event {
        case let .tagArrived(tag) where tag.reader.name == reader:
            let now = ContinuousClock.now
            last.withLock { $0 = now }
            arrived.signal()
        case let .tagLeft(tag) where tag.reader.name == reader:
            left.signal()
        default:
            break
        }
    }

    var lastArrival: ContinuousClock.Instant? { last.withLock { $0 } }
}

private func measureTaps(_ taps: Int, reader: String) -> Result<TapSamples, BenchmarkFailure> {
    // A card left by an earlier run must be gone first, or pcscd may merge its removal with the
    // first tap's arrival into no change at all.
    do { try waitForReader(present: false) } catch {
        return .failure(BenchmarkFailure(description: "\(error)"))
    }
    let times = TapTimes()
    var configuration = NFCSessionConfiguration()
    configuration.timeLimit = nil
    configuration.readerFilter = .exactName(reader)
    configuration.readerFeedback = false
    configuration.alertHandler = { _ in }
    let environment = NFCReaderEnvironment(makeBackends: { [TimedBackend(times: times)] },
                                           makeNDEFOperations: { try $0.ndefOperations() })
    let delegate = LatencyDelegate()
    let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false,
                                       configuration: configuration, environment: environment)
    session.begin()
    defer {
        session.invalidate()
        _ = delegate.ended.wait(timeout: .now() + 5)
    }
    // Removals are watched by a monitor of its own (the session's reports no removal). It only
    // watches: a monitor that identifies a card keeps the connection that read its UID for a
    // while (PCSCParkedCards), which would hold off the session's exclusive connection.
    let removals = ArrivalLog(reader: reader)
    guard let monitor = try? PCSCBackend(identifiesTags: { _ in false }).startMonitoring({ removals.handle($0) }) else {
        return .failure(BenchmarkFailure(description: "cannot monitor pcscd"))
    }
    defer { monitor.stop() }

    let message = VirtualType4Tag.sampleURIMessage
    var samples = TapSamples()
    var random = SystemRandomNumberGenerator()
    for tap in 0..<taps {
        // A real tap lands at any point of pcscd's poll cycle; right after the removal was seen
        // it would always land at the same point.
        Thread.sleep(forTimeInterval: Double.random(in: 0..<0.4, using: &random))
        times.reset()
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
        guard let t = times.snapshot else {
            card.remove()
            return .failure(BenchmarkFailure(description: "tap \(tap): the session's backend saw no complete read"))
        }
        samples.toCallback.append(elapsedMilliseconds(read - start))
        samples.toArrival.append(elapsedMilliseconds(t.arrived - start))
        samples.arrivalToConnect.append(elapsedMilliseconds(t.connectStart - t.arrived))
        samples.connect.append(elapsedMilliseconds(t.connectEnd - t.connectStart))
        samples.read.append(elapsedMilliseconds(t.lastReply - t.connectEnd))
        samples.delivery.append(elapsedMilliseconds(read - t.lastReply))
        samples.perAPDU += t.apdus
        samples.readExchanges.append(Double(t.apdus.count))
        // The next tap must be a new presence: wait until pcscd has noticed the removal.
        card.remove()
        guard removals.left.wait(timeout: .now() + 10) == .success else {
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
