import Foundation
import NFCReaders
import NFCTags
import ReaderCore
import TagEmulation
import Testing
import TestSupport

/// pcscd killed in the middle of a read, at every exchange, while a monitor (what a session runs)
/// watches: the read ends in a typed error (or, if the answer made it, the right data); pcscd
/// comes back, the card client reconnects, the monitor reports the tag again, and a new
/// connection reads the message. An extension of `PCSCSystemTests` so it shares that suite's
/// serialization: every test there uses the same pcscd.
extension PCSCSystemTests {
    @Test("pcscd killed during every exchange of a read, then restarted: same backend reads again",
          arguments: [FaultMatrix.Model.ntag213, .type4v2])
    func pcscdKilledMidRead(_ model: FaultMatrix.Model) throws {
        defer { try? TestPCSCD.control("start") }
        let backend = PCSCBackend(retryInterval: .milliseconds(100))
        let log = EventLog()
        let monitor = try backend.startMonitoring(log.handler)
        defer { monitor.stop() }
        let tag = TriggeringTag(try model.makeTag())
        let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
        let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
        try card.insert()
        defer { card.stop() }
        var arrived = try #require(log.waitFor { $0.tagArrived(on: reader0) })

        // A clean read on this path gives the number of exchanges.
        reader.plan.reset()
        do {
            let connection = try backend.connect(to: arrived.value, exclusive: true)
            defer { connection.disconnect() }
            #expect(try connection.ndefOperations().readNDEF() == model.oldMessage)
        }
        let exchanges = reader.plan.exchangeCount
        #expect(exchanges > 0)

        for k in 0 ..< exchanges {
            let connection = try backend.connect(to: arrived.value, exclusive: true)
            reader.plan.reset()
            tag.arm(at: k) { try? TestPCSCD.control("kill") }
            do {
                let bytes = try connection.ndefOperations().readNDEF()
                #expect(bytes == model.oldMessage, "\(model), pcscd killed at exchange \(k): wrong data")
            } catch {
                // SCardTransmit cut off by pcscd dying returns SCARD_F_COMM_ERROR (80100013): the
                // backend reports the reader gone.
                let typed: Bool
                switch error {
                case .readerGone, .tagLost: typed = true
                default: typed = false
                }
                #expect(typed, "\(model), pcscd killed at exchange \(k): \(error)")
            }
            connection.disconnect()
            tag.arm(at: nil)
            let lost = try #require(log.waitFor(after: arrived.index) { $0.isServiceLost })
            try TestPCSCD.control("start")
            let restored = try #require(log.waitFor(after: lost.index) { $0.isServiceRestored })
            arrived = try #require(log.waitFor(after: restored.index) { $0.tagArrived(on: reader0) })
            let again = try backend.connect(to: arrived.value, exclusive: true)
            defer { again.disconnect() }
            #expect(try again.ndefOperations().readNDEF() == model.oldMessage, "\(model): read after pcscd came back (killed at \(k))")
        }
        print("fault-matrix cells: pcscd killed, \(model) read: \(exchanges)")
    }
}
