@testable import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import ReaderCore
import Synchronization
import TagEmulation
import Testing
import TestSupport

/// A card that stops answering while it stays in the field (endless waiting-time extensions): it
/// holds only its own reader. Each reader's I/O runs on its own lane under the operation deadline,
/// so other readers, the session clock and invalidation go on (docs/architecture.md, "Threads and queues").
/// Reader names are unique to this suite: lanes are process-wide, one per reader.
@Suite("Stuck tags: per-reader I/O, operation deadline, prompt session end")
struct StuckTagTests {
    /// Reports seen by the session's report handler.
    final class Reports: Sendable {
        let items = Mutex<[NFCTagReport]>([])
        func on(_ reader: String) -> [NFCTagReport] { items.withLock { $0.filter { $0.tag.reader.name == reader } } }
    }

    static func environment(_ backend: VirtualReaderBackend, clock: any NFCSessionClock) -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() }, clock: clock)
    }

    static func ntag213() throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: VirtualType2Tag.defaultUID,
                            ndef: try NDEFMessage(records: [.uri("https://example.com/good")]).encoded())
    }

    /// A Type 4 card whose first exchange never gets an answer.
    static func stalledType4(on backend: VirtualReaderBackend, reader: String) throws -> FaultPlan {
        let plan = try #require(backend.reader(named: reader)).plan
        plan.reset(faults: [0: .stall])
        backend.place(VirtualType4Tag.smallMessage(), on: reader)
        return plan
    }

    /// Polls `condition` every 10 ms for up to `seconds` of real time.
    static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    @Test("a good card on reader B is read while reader A's card is stuck; A is lost (100) at the deadline")
    func otherReaderGoesOn() throws {
        let clock = ManualClock()
        let backend = VirtualReaderBackend(readerNames: ["Stuck-1 A", "Stuck-1 B"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.batchWindow = .zero
        configuration.operationTimeout = .seconds(5)
        let reports = Reports()
        configuration.tagReportHandler = { report in reports.items.withLock { $0.append(report) }; return true }
        let session = NFCNDEFReaderSession(configuration: configuration, environment: Self.environment(backend, clock: clock))
        session.begin()
        let plan = try Self.stalledType4(on: backend, reader: "Stuck-1 A")
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 1 })
        backend.place(try Self.ntag213(), on: "Stuck-1 B")
        // B is read in real time while A's exchange hangs (before the fix: never, one queue for all).
        #expect(Self.eventually(within: 5) { reports.on("Stuck-1 B").count == 1 })
        #expect(reports.on("Stuck-1 B").first?.message != nil)
        #expect(reports.on("Stuck-1 A").isEmpty)
        // The deadline passes on the session clock: A is reported lost, its exchange abandoned.
        clock.advance(by: .seconds(5))
        #expect(Self.eventually(within: 5) { reports.on("Stuck-1 A").count == 1 })
        let lost = try #require(reports.on("Stuck-1 A").first)
        #expect(lost.error?.code == .readerTransceiveErrorTagConnectionLost)
        #expect(lost.error?.message.contains("did not answer within 5 s") == true)
        // Abandoning released the stalled exchange: no thread is left behind.
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 0 })
        #expect(ReaderLane.lane(for: ReaderInfo(name: "Stuck-1 A", backend: .virtual)).waitUntilIdle(timeout: 5))
        #expect(session.engine.phase == .active)
        session.invalidate()
    }

    @Test("the session time limit ends a session in the middle of a stuck exchange")
    func timeLimitMidExchange() throws {
        let clock = ManualClock()
        let backend = VirtualReaderBackend(readerNames: ["Stuck-2 A"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = .seconds(10)
        configuration.batchWindow = .zero
        configuration.operationTimeout = nil  // only the time limit can end it
        let delegate = EndRecorder()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false,
                                           configuration: configuration, environment: Self.environment(backend, clock: clock))
        session.begin()
        #expect(Self.eventually(within: 5) { session.engine.phase == .active })
        let plan = try Self.stalledType4(on: backend, reader: "Stuck-2 A")
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 1 })
        let started = Date()
        clock.advance(by: .seconds(10))
        // The promise is 1 s; 3 s leaves room for a loaded 2-core machine running tests in parallel.
        #expect(delegate.ended.wait(timeout: .now() + 3) == .success)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(delegate.error.withLock { $0 }?.code == .readerSessionInvalidationErrorSessionTimeout)
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 0 })
    }

    @Test("invalidate() (Ctrl-C) ends a session within 1 s in the middle of a stuck exchange")
    func invalidateMidExchange() throws {
        let backend = VirtualReaderBackend(readerNames: ["Stuck-3 A"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.operationTimeout = nil
        let delegate = EndRecorder()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false,
                                           configuration: configuration,
                                           environment: Self.environment(backend, clock: DispatchSessionClock.shared))
        session.begin()
        let plan = try Self.stalledType4(on: backend, reader: "Stuck-3 A")
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 1 })
        let started = Date()
        session.invalidate()
        // The promise is 1 s; 3 s leaves room for a loaded 2-core machine running tests in parallel.
        #expect(delegate.ended.wait(timeout: .now() + 3) == .success)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 0 })
    }

    @Test("a slow long read is cut at the deadline and stops between chunks")
    func slowReadStopsAtDeadline() throws {
        let backend = VirtualReaderBackend(readerNames: ["Stuck-4 A"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.operationTimeout = .milliseconds(300)
        let reports = Reports()
        configuration.tagReportHandler = { report in reports.items.withLock { $0.append(report) }; return true }
        let session = NFCNDEFReaderSession(configuration: configuration,
                                           environment: Self.environment(backend, clock: DispatchSessionClock.shared))
        session.begin()
        let plan = try #require(backend.reader(named: "Stuck-4 A")).plan
        plan.latency = .milliseconds(20)  // 32 000 B in 246-byte chunks: about 135 exchanges, 2.7 s
        backend.place(VirtualType4Tag.largeMessage(version: .v2, size: 32_000), on: "Stuck-4 A")
        #expect(Self.eventually(within: 3) { reports.on("Stuck-4 A").count == 1 })
        #expect(reports.on("Stuck-4 A").first?.error?.code == .readerTransceiveErrorTagConnectionLost)
        #expect(reports.on("Stuck-4 A").first?.message == nil)
        // The lane stops at the next chunk: the exchange count no longer grows.
        Thread.sleep(forTimeInterval: 0.1)
        let afterCut = plan.exchangeCount
        Thread.sleep(forTimeInterval: 0.3)
        #expect(plan.exchangeCount == afterCut)
        #expect(afterCut < 110)
        session.invalidate()
    }

    @Test("a command to a stuck tag in a tag session fails with 100 at the deadline and drops the connection")
    func tagSessionCommand() throws {
        let clock = ManualClock()
        let backend = VirtualReaderBackend(readerNames: ["Stuck-5 A"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.operationTimeout = .seconds(5)
        configuration.batchWindow = .zero
        let delegate = TagCollector()
        let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil,
                                                        configuration: configuration,
                                                        environment: Self.environment(backend, clock: clock)))
        session.begin()
        backend.place(VirtualType4Tag.smallMessage(), on: "Stuck-5 A")
        #expect(delegate.detected.wait(timeout: .now() + 5) == .success)
        guard case let .iso7816(tag)? = delegate.tags.withLock({ $0.first }) else {
            Issue.record("no ISO 7816 tag")
            return
        }
        let connected = DispatchSemaphore(value: 0)
        session.connect(to: .iso7816(tag)) { error in #expect(error == nil); connected.signal() }
        #expect(connected.wait(timeout: .now() + 5) == .success)
        let plan = try #require(backend.reader(named: "Stuck-5 A")).plan
        plan.reset(faults: [0: .stall])
        let answered = DispatchSemaphore(value: 0)
        let failure = Locked<NFCReaderError?>(nil)
        tag.sendCommand(apdu: NFCISO7816APDU(instructionClass: 0, instructionCode: 0xB0, p1Parameter: 0, p2Parameter: 0,
                                             data: Data(), expectedResponseLength: 2)) { _, _, _, error in
            failure.withLock { $0 = error as? NFCReaderError }
            answered.signal()
        }
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 1 })
        #expect(answered.wait(timeout: .now() + 0.2) == .timedOut)
        clock.advance(by: .seconds(5))
        #expect(answered.wait(timeout: .now() + 5) == .success)
        #expect(failure.withLock { $0 }?.code == .readerTransceiveErrorTagConnectionLost)
        #expect(Self.eventually(within: 5) { session.connectedTag == nil })
        #expect(Self.eventually(within: 5) { plan.stalledExchanges == 0 })
        session.invalidate()
    }
}

/// Signals once the session ended.
final class EndRecorder: NSObject, NFCNDEFReaderSessionDelegate, Sendable {
    let ended = DispatchSemaphore(value: 0)
    let error = Mutex<NFCReaderError?>(nil)
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        self.error.withLock { $0 = error as? NFCReaderError }
        ended.signal()
    }
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
}

/// Keeps the tags a tag session detects.
// @unchecked: it keeps the detected tags, which are not Sendable (as in Apple's Core NFC); `tags` is a lock box.
final class TagCollector: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
    let tags = Locked<[NFCTag]>([])
    let detected = DispatchSemaphore(value: 0)
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {}
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        self.tags.withLock { $0 += tags }
        detected.signal()
    }
}
