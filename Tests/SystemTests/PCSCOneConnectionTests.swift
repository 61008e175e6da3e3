import Foundation
import NFCReaders
import PCSC
import ReaderCore
import Synchronization
import TagEmulation
import Testing

// Ring 3, issue 25 item 2: one `SCardConnect` per tap. The connection that read a new tag's UID
// is the one the read uses; one that nobody takes is let go, so other programs get the reader.
extension PCSCSystemTests {
    /// The `connect` lines an installed trace saw for `reader`.
    final class ConnectLog: Sendable {
        private let lines = Mutex<[String]>([])
        let reader: String

        init(reader: String) { self.reader = reader }

        var trace: ExchangeTrace {
            ExchangeTrace { [self] line in
                if line.hasPrefix("connect \(reader) ") { lines.withLock { $0.append(line) } }
            }
        }

        var count: Int { lines.withLock { $0.count } }
    }

    @Test("the read takes over the connection that read the UID: one connect per tap, exclusive when asked")
    func oneConnectionPerTap() throws {
        let card = ScriptedCard(atr: TestPCSCD.type4ATR, replies: [
            Self.getUID: [0x08, 0x11, 0x22, 0x33, 0x90, 0x00],
            Self.selectNDEF: [0x90, 0x00],
        ])
        let connects = ConnectLog(reader: reader1)
        ExchangeTrace.install(connects.trace)
        defer { ExchangeTrace.install(nil) }
        let backend = PCSCBackend()
        let log = EventLog()
        let monitor = try backend.startMonitoring(log.handler)
        defer { monitor.stop() }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port1)
        try vpcd.insert()
        defer { vpcd.stop() }
        let tag = try #require(log.waitFor { $0.tagArrived(on: reader1) }?.value)
        #expect(connects.count == 1)

        let connection = try backend.connect(to: tag, exclusive: true)
        #expect(connects.count == 1, "the read opened a second connection")
        #expect(try connection.apdu?.transceive(Self.selectNDEF) == [0x90, 0x00])
        #expect(card.received == [Self.getUID, Self.selectNDEF])
        // Switched to exclusive: nobody else gets the card meanwhile.
        #expect(throws: PCSCError.self) { _ = try Context().connect(reader: reader1, share: .shared) }
        connection.disconnect()
        // The parked connection was handed out once: a second connect opens its own.
        let again = try backend.connect(to: tag, exclusive: false)
        #expect(connects.count == 2)
        again.disconnect()
    }

    @Test("two backends of one process identified the same card: an exclusive connect closes the other's parked connection instead of waiting out its 5 s")
    func anotherBackendsParkedConnectionYieldsToExclusive() throws {
        let card = ScriptedCard(atr: TestPCSCD.type4ATR, replies: [
            Self.getUID: [0x08, 0x11, 0x22, 0x33, 0x90, 0x00],
            Self.selectNDEF: [0x90, 0x00],
        ])
        let first = PCSCBackend(), second = PCSCBackend()
        let firstLog = EventLog(), secondLog = EventLog()
        let firstMonitor = try first.startMonitoring(firstLog.handler)
        defer { firstMonitor.stop() }
        let secondMonitor = try second.startMonitoring(secondLog.handler)
        defer { secondMonitor.stop() }
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port1)
        try vpcd.insert()
        defer { vpcd.stop() }
        let tag = try #require(firstLog.waitFor { $0.tagArrived(on: reader1) }?.value)
        let secondTag = try #require(secondLog.waitFor { $0.tagArrived(on: reader1) }?.value)
        // Each monitor read the UID on a shared connection of its own and parked it.
        #expect(card.received == [Self.getUID, Self.getUID])

        let started = ContinuousClock.now
        let connection = try first.connect(to: tag, exclusive: true)
        // Without the close it returned after 5.0 s, the parked connection's limit.
        #expect(ContinuousClock.now - started < .seconds(2), "held off by the other backend's parked connection")
        #expect(try connection.apdu?.transceive(Self.selectNDEF) == [0x90, 0x00])
        #expect(throws: PCSCError.self) { _ = try Context().connect(reader: reader1, share: .shared) }
        connection.disconnect()
        // The other backend's parked connection is gone: its own read connects afresh.
        let again = try second.connect(to: secondTag, exclusive: true)
        #expect(try again.apdu?.transceive(Self.selectNDEF) == [0x90, 0x00])
        again.disconnect()
    }

    @Test("a UID read's connection nobody takes closes when the monitor stops")
    func unclaimedConnectionIsLetGo() throws {
        let card = ScriptedCard(atr: TestPCSCD.type4ATR, replies: [Self.getUID: [0x01, 0x02, 0x03, 0x04, 0x90, 0x00]])
        let log = EventLog()
        let monitor = try PCSCBackend().startMonitoring(log.handler)
        let vpcd = VPCDCard(behaviour: card, port: TestPCSCD.port1)
        try vpcd.insert()
        defer { vpcd.stop() }
        let tag = try #require(log.waitFor { $0.tagArrived(on: reader1) }?.value)
        // Held (shared) while the tap may still be read: an exclusive connection is refused.
        #expect(throws: PCSCError.self) { _ = try Context().connect(reader: reader1, share: .exclusive) }
        monitor.stop()
        #expect(ReaderLane.lane(for: tag.reader).waitUntilIdle(timeout: 10))
        let other = try Context().connect(reader: reader1, share: .exclusive)
        try other.disconnect(.leave)
    }
}
