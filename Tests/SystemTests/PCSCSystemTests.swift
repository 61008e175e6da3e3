import Foundation
import NDEF
import NFCReaders
import NFCTags
import PCSC
import ReaderCore
import TagEmulation
import Testing

/// Ring 3: the PC/SC wrapper, backend, vpcd card client and `nfctap readers` against the real
/// pcscd + vpcd started by scripts/services/pcscd.sh. One serialized suite: the tests share
/// the daemon, and some stop it (each restarts it before returning).
@Suite("PC/SC against pcscd + vpcd", .serialized, .enabled(if: SystemEnvironment.available("pcscd")))
struct PCSCSystemTests {
    let reader0 = TestPCSCD.reader0
    let reader1 = TestPCSCD.reader1
    static let getUID: [UInt8] = [0xFF, 0xCA, 0x00, 0x00, 0x00]
    static let selectNDEF = [UInt8](hex: "00 A4 04 00 07 D2 76 00 00 85 01 01 00")!
    static let readCC = [UInt8](hex: "00 B0 00 00 0F")!
    static let ccFile = [UInt8](hex: "00 0F 20 00 3B 00 34 04 06 E1 04 00 FF 00 00 90 00")!

    init() throws {
        // Independent of order: a test that stopped pcscd and failed must not break the next one.
        try TestPCSCD.control("start")
        try TestPCSCD.waitUntilReadersAreEmpty()
    }

    // MARK: Readers

    @Test func listsBothVirtualReaders() throws {
        let readers = try PCSCBackend().listReaders()
        #expect(readers.map(\.name) == [reader0, reader1])
        #expect(readers.allSatisfy { $0.backend == .pcsc && !$0.supportsFeedback })
        #expect(try Context().listReaders() == [reader0, reader1])
    }

    @Test func monitorReportsReadersFirst() throws {
        let log = EventLog()
        let monitor = try PCSCBackend().startMonitoring(log.handler)
        defer { monitor.stop() }
        log.waitFor { $0.readerAdded(reader1) }
        let first = log.all.prefix(2).compactMap { event -> String? in
            if case let .readerAdded(info) = event { return info.name } else { return nil }
        }
        #expect(first == [reader0, reader1])
    }

    // MARK: Tags

    @Test func storageTagArrivesWithATRAndUID() throws {
        let card = ScriptedCard(atr: TestPCSCD.ntagATR, replies: [Self.getUID: [UInt8](hex: "04 A1 B2 C3 D4 E5 F6 90 00")!])
        let log = EventLog()
        let monitor = try PCSCBackend().startMonitoring(log.handler)
        defer { monitor.stop() }
        log.waitFor { $0.readerAdded(reader0) }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port0)
        try vpcd.insert()
        defer { vpcd.stop() }

        let tag = try #require(log.waitFor { $0.tagArrived(on: reader0) }?.value)
        #expect(tag.technology == .type2)
        #expect(tag.uid == [UInt8](hex: "04A1B2C3D4E5F6")!)
        #expect(tag.atr == TestPCSCD.ntagATR)
        #expect(tag.historicalBytes.isEmpty)
        // The monitor asked exactly once, for the UID.
        #expect(card.received == [Self.getUID])
    }

    @Test func apduRoundTripThenRemoval() throws {
        let card = ScriptedCard(atr: TestPCSCD.type4ATR, replies: [
            Self.getUID: [0x08, 0x11, 0x22, 0x33, 0x90, 0x00],
            Self.selectNDEF: [0x90, 0x00],
            Self.readCC: Self.ccFile,
        ])
        let log = EventLog()
        let backend = PCSCBackend()
        let monitor = try backend.startMonitoring(log.handler)
        defer { monitor.stop() }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port0)
        try vpcd.insert()
        defer { vpcd.stop() }
        let arrived = try #require(log.waitFor { $0.tagArrived(on: reader0) })
        let tag = arrived.value
        #expect(tag.technology == .type4)
        #expect(tag.historicalBytes == [0x80])
        #expect(tag.uid == [0x08, 0x11, 0x22, 0x33])

        let connection = try backend.connect(to: tag, exclusive: false)
        defer { connection.disconnect() }
        #expect(connection.type2 == nil)
        let apdu = try #require(connection.apdu)
        #expect(try apdu.transceive(Self.selectNDEF) == [0x90, 0x00])
        #expect(try apdu.transceive(Self.readCC) == Self.ccFile)
        #expect(try apdu.transceive([0x00, 0xB0, 0x00, 0x0F, 0x10]) == [0x6D, 0x00])
        #expect(card.received == [Self.getUID, Self.selectNDEF, Self.readCC, [0x00, 0xB0, 0x00, 0x0F, 0x10]])

        vpcd.remove()
        let left = try #require(log.waitFor(after: arrived.index) { $0.tagLeft(on: reader0) }?.value)
        #expect(left.presence == tag.presence)
        #expect(throws: TagError.tagLost) { try apdu.transceive(Self.selectNDEF) }
        #expect(throws: ReaderError.tagGone) { try backend.connect(to: tag, exclusive: false) }
    }

    @Test func tagLeavingTheFieldByItselfIsReported() throws {
        let card = ScriptedCard(atr: TestPCSCD.ntagATR, replies: [Self.getUID: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x90, 0x00]])
        let log = EventLog()
        let monitor = try PCSCBackend().startMonitoring(log.handler)
        defer { monitor.stop() }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port0)
        try vpcd.insert()
        defer { vpcd.stop() }
        let arrived = try #require(log.waitFor { $0.tagArrived(on: reader0) })
        card.leaveField()  // the next ATR poll gets no answer: the client closes, pcscd sees a removal
        let left = try #require(log.waitFor(after: arrived.index) { $0.tagLeft(on: reader0) }?.value)
        #expect(left.presence == arrived.value.presence)
        #expect(!vpcd.isInserted)
    }

    @Test func twoExclusiveConnectionsMakeTheSecondBusy() throws {
        let card = ScriptedCard(atr: TestPCSCD.type4ATR, replies: [Self.getUID: [0x01, 0x02, 0x03, 0x04, 0x90, 0x00]])
        let backend = PCSCBackend()
        let log = EventLog()
        let monitor = try backend.startMonitoring(log.handler)
        defer { monitor.stop() }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port1)
        try vpcd.insert()
        defer { vpcd.stop() }
        let tag = try #require(log.waitFor { $0.tagArrived(on: reader1) }?.value)

        let first = try backend.connect(to: tag, exclusive: true)
        #expect(throws: ReaderError.readerBusy(reader1)) { try backend.connect(to: tag, exclusive: true) }
        #expect(throws: ReaderError.readerBusy(reader1)) { try backend.connect(to: tag, exclusive: false) }
        first.disconnect()
        let again = try backend.connect(to: tag, exclusive: true)
        again.disconnect()
    }

    // MARK: Blocking calls

    @Test func statusChangeTimesOutWhenNothingChanges() throws {
        let context = try Context()
        var states = [ReaderState(reader: reader1)]
        try context.getStatusChange(&states, timeout: .zero)
        #expect(states[0].hasChanged)
        #expect(states[0].eventState.contains(.empty))
        states[0].acknowledge()
        #expect(throws: PCSCError.timeout) { try context.getStatusChange(&states, timeout: .milliseconds(50)) }
        #expect(throws: PCSCError.unknownReader) {
            var bogus = [ReaderState(reader: "No Such Reader 00 00")]
            try context.getStatusChange(&bogus, timeout: .zero)
        }
    }

    @Test func cancelFromAnotherThreadUnblocksAnInfiniteWait() throws {
        let context = try Context()
        var states = [ReaderState(reader: reader1)]
        try context.getStatusChange(&states, timeout: .zero)
        states[0].acknowledge()
        let waiting = states
        let outcome = Outcome()
        let thread = Thread {
            var s = waiting
            do throws(PCSCError) { try context.getStatusChange(&s, timeout: nil); outcome.set(nil) } catch { outcome.set(error) }
        }
        thread.start()
        // The waiter may not be blocked yet when a cancel arrives: cancel until it returns
        // (bounded so a broken cancel fails the test instead of hanging it).
        var attempts = 0
        while !outcome.wait(milliseconds: 20), attempts < 500 {
            try? context.cancel()
            attempts += 1
        }
        let error = try #require(outcome.value)
        #expect(error == .cancelled)
    }

    @Test func stoppedMonitorReportsNothingMore() throws {
        let backend = PCSCBackend()
        let log = EventLog()
        let monitor = try backend.startMonitoring(log.handler)
        log.waitFor { $0.readerAdded(reader1) }
        monitor.stop()  // returns once the thread will not call the handler again
        let count = log.all.count

        let card = ScriptedCard(atr: TestPCSCD.ntagATR, replies: [:])
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port1)
        try vpcd.insert()
        defer { vpcd.stop() }
        let witness = EventLog()
        let second = try backend.startMonitoring(witness.handler)
        defer { second.stop() }
        let tag = try #require(witness.waitFor { $0.tagArrived(on: reader1) }?.value)
        #expect(tag.uid.isEmpty)  // the card answers 6D 00 to FF CA: no UID, still reported
        #expect(log.all.count == count)
    }

    // MARK: pcscd going away

    @Test func serviceLostThenRestored() throws {
        defer { try? TestPCSCD.control("start") }
        let card = ScriptedCard(atr: TestPCSCD.type4ATR, replies: [Self.getUID: [0x0A, 0x0B, 0x0C, 0x0D, 0x90, 0x00], Self.selectNDEF: [0x90, 0x00]])
        let backend = PCSCBackend(retryInterval: .milliseconds(100))
        let log = EventLog()
        let monitor = try backend.startMonitoring(log.handler)
        defer { monitor.stop() }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port0)
        try vpcd.insert()
        defer { vpcd.stop() }
        let arrived = try #require(log.waitFor { $0.tagArrived(on: reader0) })
        let connection = try backend.connect(to: arrived.value, exclusive: false)
        defer { connection.disconnect() }

        try TestPCSCD.control("kill")
        let lost = try #require(log.waitFor(after: arrived.index) { $0.isServiceLost })
        #expect(lost.value == .serviceUnavailable(hint: PCSCBackend.serviceHint))
        let left = try #require(log.waitFor(after: lost.index) { $0.tagLeft(on: reader0) })
        #expect(left.value.presence == arrived.value.presence)
        log.waitFor(after: lost.index) { $0.readerRemoved(reader0) }
        #expect(throws: ReaderError.serviceUnavailable(hint: PCSCBackend.serviceHint)) { try backend.listReaders() }
        #expect(throws: TagError.readerGone) { try connection.apdu?.transceive(Self.selectNDEF) }

        try TestPCSCD.control("start")
        let restored = try #require(log.waitFor(after: lost.index) { $0.isServiceRestored })
        log.waitFor(after: restored.index) { $0.readerAdded(reader0) }
        log.waitFor(after: restored.index) { $0.readerAdded(reader1) }
        // The card stayed "in the reader": the client reconnects to the new vpcd.
        let back = try #require(log.waitFor(after: restored.index) { $0.tagArrived(on: reader0) }?.value)
        #expect(back.uid == [0x0A, 0x0B, 0x0C, 0x0D])
        #expect(back.presence != arrived.value.presence)
        #expect(try backend.listReaders().map(\.name) == [reader0, reader1])
    }

    // MARK: nfctap readers

    struct ReaderLine: Decodable, Equatable {
        struct Tag: Decodable, Equatable { var technology: String; var atr: String; var uid: String }
        var name: String
        var backend: String
        var feedback: Bool
        var tag: Tag?
    }

    @Test func cliReadersJSON() throws {
        let card = ScriptedCard(atr: TestPCSCD.ntagATR, replies: [Self.getUID: [UInt8](hex: "04 A1 B2 C3 D4 E5 F6 90 00")!])
        let log = EventLog()
        let monitor = try PCSCBackend().startMonitoring(log.handler)
        defer { monitor.stop() }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port0)
        try vpcd.insert()
        defer { vpcd.stop() }
        log.waitFor { $0.tagArrived(on: reader0) }

        let result = try runCLI(["readers", "--json"])
        #expect(result.status == 0)
        let lines = try JSONDecoder().decode([ReaderLine].self, from: Data(result.stdout.utf8))
        #expect(lines == [
            ReaderLine(name: reader0, backend: "pcsc", feedback: false,
                       tag: .init(technology: "type2", atr: TestPCSCD.ntagATR.hexString, uid: "04A1B2C3D4E5F6")),
            ReaderLine(name: reader1, backend: "pcsc", feedback: false, tag: nil),
        ])
        #expect(result.stdout.filter { $0 == "\n" }.count == 1)  // one JSON array, one line
    }

    @Test func cliReadersWithoutPcscdExits3WithTheFix() throws {
        defer { try? TestPCSCD.control("start") }
        try TestPCSCD.control("stop")
        let result = try runCLI(["readers", "--json"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(PCSCBackend.serviceHint))
    }
}

/// A thread's result, waited for with a bound.
// @unchecked: the vars are only touched with `condition` held (an NSCondition: the waits need a condition variable, which Mutex lacks)
final class Outcome: @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false
    private var error: PCSCError?

    func set(_ error: PCSCError?) {
        condition.lock(); self.error = error; done = true; condition.broadcast(); condition.unlock()
    }

    /// True once `set` was called; waits at most `milliseconds` for it.
    func wait(milliseconds: Int) -> Bool {
        condition.lock(); defer { condition.unlock() }
        if !done { _ = condition.wait(until: Date().addingTimeInterval(Double(milliseconds) / 1000)) }
        return done
    }

    var value: PCSCError? {
        condition.lock(); defer { condition.unlock() }
        return error
    }
}
