import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCTags
import ReaderCore
import Testing
@testable import TagEmulation

/// The project's libnfc backend over libnfc's real `pn532_uart` driver, against the PN532
/// emulator on a pseudo-terminal.
@Suite("LibNFCBackend with the PN532 emulator", .serialized,
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
struct LibNFCBackendSystemTests {
    let timing = LibNFCBackend.Timing(pollInterval: .milliseconds(50), presenceInterval: .milliseconds(50),
                                      retryInterval: .milliseconds(100))

    /// A started emulator and a backend naming it explicitly; `body` gets the reader.
    func withBackend(tag: VirtualTag?, linkPath: String? = nil,
                     _ body: (PN532Emulator, LibNFCBackend, ReaderInfo) throws -> Void) throws {
        let emulator = PN532Emulator(tag: tag, linkPath: linkPath)
        let path = try emulator.start()
        defer { emulator.stop() }
        let backend = LibNFCBackend(devices: ["pn532_uart:\(path)"], environment: [:], timing: timing)
        defer { backend.close() }
        let reader = ReaderInfo(name: "libnfc:pn532_uart:\(path)", backend: .libnfc)
        try body(emulator, backend, reader)
    }

    @Test func listsTheDeviceByExplicitConnstringAndByLIBNFC_DEVICE() throws {
        let emulator = PN532Emulator(tag: nil)
        let path = try emulator.start()
        defer { emulator.stop() }
        let explicit = LibNFCBackend(devices: ["pn532_uart:\(path)"], environment: [:])
        #expect(try explicit.listReaders() == [ReaderInfo(name: "libnfc:pn532_uart:\(path)", backend: .libnfc)])
        explicit.close()
        let fromEnvironment = LibNFCBackend(environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"], configPath: "/nonexistent")
        #expect(try fromEnvironment.listReaders().map(\.name) == ["libnfc:pn532_uart:\(path)"])
        fromEnvironment.close()
        // A device that cannot be opened is not listed (and is not an error).
        let missing = LibNFCBackend(devices: ["pn532_uart:/nonexistent/tty"], environment: [:])
        #expect(try missing.listReaders().isEmpty)
    }

    @Test func monitorReportsArrivalsAndDepartures() throws {
        let tag = FixtureType2Tag()
        try withBackend(tag: tag) { emulator, backend, reader in
            let events = ReaderEventRecorder()
            let monitor = try backend.startMonitoring(events.handler)
            defer { monitor.stop() }
            guard case let .readerAdded(added)? = events.next("readerAdded", { if case .readerAdded = $0 { true } else { false } }) else { return }
            #expect(added == reader)
            guard case let .tagArrived(first)? = events.next("tagArrived", { if case .tagArrived = $0 { true } else { false } }) else { return }
            #expect(first.uid == tag.uid)
            #expect(first.technology == .type2)
            #expect(first.atr.hexString == "3B8F8001804F0CA0000003060300030000000068")
            emulator.tag = nil
            guard case let .tagLeft(left)? = events.next("tagLeft", { if case .tagLeft = $0 { true } else { false } }) else { return }
            #expect(left == first)
            emulator.tag = FixtureISODEPTag()
            guard case let .tagArrived(second)? = events.next("tagArrived", { if case .tagArrived = $0 { true } else { false } }) else { return }
            #expect(second.technology == .type4)
            #expect(second.historicalBytes == [0x80])
            #expect(second.atr.hexString == "3B8180018080")
            #expect(second.presence > first.presence)
        }
    }

    @Test func type2LinkReadsFastReadsWritesAndGetsTheVersion() throws {
        let tag = FixtureType2Tag()
        try withBackend(tag: tag) { emulator, backend, reader in
            let detected = try #require(try backend.detectTag(on: reader))
            let connection = try backend.connect(to: detected, exclusive: true)
            defer { connection.disconnect() }
            #expect(connection.apdu == nil)
            let link = try #require(connection.type2)
            emulator.plan.reset()

            #expect(try link.read(page: 0) == Array(tag.memory[0..<16]))
            #expect(try link.read(page: 43) == Array(tag.memory[172..<180] + tag.memory[0..<8]))  // wraps
            #expect(link.fastReadLimit == 240)
            #expect(try link.fastRead(from: 0, to: 44) == tag.memory)
            try link.write(page: 4, data: [0x03, 0x00, 0xFE, 0x00])
            #expect(tag.pages[4] == [0x03, 0x00, 0xFE, 0x00])
            #expect(link.canSendRawCommands)
            #expect(try link.getVersion() == FixtureType2Tag.version)
            // Native frames, one exchange each, exactly these.
            #expect(emulator.plan.log == [[0x30, 0x00], [0x30, 0x2B], [0x3A, 0x00, 0x2C],
                                          [0xA2, 0x04, 0x03, 0x00, 0xFE, 0x00], [0x60]])
            // GET_VERSION went through InCommunicateThru with CRC_A by hand; then easy framing is back.
            #expect(emulator.commandLog.contains([0x42, 0x60, 0xF8, 0x32]))
            #expect(try link.read(page: 4).prefix(4) == [0x03, 0x00, 0xFE, 0x00])
        }
    }

    @Test func aNAKIsATransportErrorAndTheTagStaysUsable() throws {
        let tag = FixtureType2Tag()
        try withBackend(tag: tag) { _, backend, reader in
            let detected = try #require(try backend.detectTag(on: reader))
            let connection = try backend.connect(to: detected, exclusive: true)
            defer { connection.disconnect() }
            let link = try #require(connection.type2)
            #expect(throws: TagError.transport(code: -20, message: "RF Transmission Error: the tag rejected the command or answered garbage")) {
                try link.write(page: 200, data: [1, 2, 3, 4])
            }
            #expect(try link.read(page: 0) == Array(tag.memory[0..<16]))
        }
    }

    @Test func isoDEPAPDURoundTrip() throws {
        let tag = FixtureISODEPTag()
        try withBackend(tag: tag) { _, backend, reader in
            let detected = try #require(try backend.detectTag(on: reader))
            #expect(detected.technology == .type4)
            let connection = try backend.connect(to: detected, exclusive: true)
            defer { connection.disconnect() }
            #expect(connection.type2 == nil)
            let apdu = try #require(connection.apdu)
            let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
            #expect(try apdu.transceive(select) == [0x90, 0x00])
            let long = try apdu.transceive([0x00, 0xB0, 0x00, 0x00, 0xF0])
            #expect(long == (0..<240).map { UInt8($0) } + [0x90, 0x00])
            #expect(try apdu.transceive([0x00, 0xCA, 0x00, 0x00, 0x00]) == [0x6D, 0x00])
            #expect(tag.apdus.suffix(3) == [select, [0x00, 0xB0, 0x00, 0x00, 0xF0], [0x00, 0xCA, 0x00, 0x00, 0x00]])
        }
    }

    @Test func tagRemovedMidReadIsTagLost() throws {
        try withBackend(tag: FixtureType2Tag()) { emulator, backend, reader in
            let detected = try #require(try backend.detectTag(on: reader))
            let connection = try backend.connect(to: detected, exclusive: true)
            defer { connection.disconnect() }
            let link = try #require(connection.type2)
            emulator.plan.leaveFieldAfter = emulator.plan.exchangeCount + 2
            _ = try link.read(page: 0)
            _ = try link.read(page: 4)
            #expect(throws: TagError.tagLost) { try link.read(page: 8) }
            #expect(throws: ReaderError.tagGone) { try backend.connect(to: detected, exclusive: true) }
        }
    }

    @Test func emulatorClosedIsServiceLostAndReopenedIsServiceRestored() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("ttyPN532").path
        let emulator = PN532Emulator(tag: FixtureType2Tag(), linkPath: link)
        try emulator.start()
        defer { emulator.stop() }
        let backend = LibNFCBackend(devices: ["pn532_uart:\(link)"], environment: [:], timing: timing)
        defer { backend.close() }
        let events = ReaderEventRecorder()
        let monitor = try backend.startMonitoring(events.handler)
        defer { monitor.stop() }
        _ = events.next("tagArrived") { if case .tagArrived = $0 { true } else { false } }
        emulator.stop()
        _ = events.next("tagLeft") { if case .tagLeft = $0 { true } else { false } }
        guard case let .serviceLost(error)? = events.next("serviceLost", { if case .serviceLost = $0 { true } else { false } }) else { return }
        #expect(error == .readerGone("libnfc:pn532_uart:\(link)"))
        try emulator.start()
        _ = events.next("serviceRestored") { if case .serviceRestored = $0 { true } else { false } }
        _ = events.next("tagArrived again") { if case .tagArrived = $0 { true } else { false } }
    }
}
