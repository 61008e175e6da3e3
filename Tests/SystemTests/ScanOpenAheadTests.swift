import Foundation
import NFCReaders
import Synchronization
import NDEF
import NFCTags
import TagEmulation
import Testing

// Ring 3: a plain `scan` opens its libnfc devices on the main thread while the session starts
// (LibNFCOpenAhead). What must hold: each device is opened once (the session takes the device
// opened ahead, never opening the port a second time), the tag is read through it, the device is
// closed at the end, and an open that fails fails the scan as it did when the session opened.
// Counted on the PN532 emulator: libnfc's open sends Diagnose with "libnfc" once per nfc_open.
@Suite("scan opens its libnfc devices ahead", .enabled(if: SystemEnvironment.available("libnfc")))
struct ScanOpenAheadTests {
    static let diagnose: [UInt8] = [0x00, 0x00] + Array("libnfc".utf8)
    /// nfc_close: InRelease, field off, PowerDown.
    static let closeSequence: [[UInt8]] = [[0x52, 0x00], [0x32, 0x01, 0x00], [0x16, 0xF0]]

    static func opens(_ emulator: PN532Emulator) -> Int {
        emulator.commandLog.filter { $0 == diagnose }.count
    }

    @Test func theNamedDeviceIsOpenedOnceReadAndClosed() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0x91), ndef: ScanVectors.uriMessage)
        let emulator = PN532Emulator(tag: tag)
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runCLI(["scan", "--json", "--reader", "libnfc:pn532_uart:\(path)", "--timeout", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ScanJSON.decode(result.stdout).uid == tag.uid.hexString)
        #expect(Self.opens(emulator) == 1, "\(emulator.commandLog)")
        #expect(Array(emulator.commandLog.suffix(3)) == Self.closeSequence)
    }

    @Test func aDeviceBothConfiguredAndNamedIsOpenedOnce() throws {
        let tag = try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0x92), ndef: ScanVectors.textMessage)
        let emulator = PN532Emulator(tag: tag)
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runCLI(["scan", "--json", "--reader", "libnfc:pn532_uart:\(path)", "--timeout", "20"],
                                environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ScanJSON.decode(result.stdout).uid == tag.uid.hexString)
        #expect(Self.opens(emulator) == 1, "\(emulator.commandLog)")
    }

    /// The configured device and the named one: both opened ahead, each once, both handed to the
    /// session (the tag is on the second), both closed.
    @Test func twoDevicesAreEachOpenedOnce() throws {
        let configured = PN532Emulator(tag: nil)
        let configuredPath = try configured.start()
        defer { configured.stop() }
        let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0x93), ndef: ScanVectors.uriMessage)
        let named = PN532Emulator(tag: tag)
        let namedPath = try named.start()
        defer { named.stop() }
        let result = try runCLI(["scan", "--json", "--reader", "libnfc:pn532_uart:\(namedPath)",
                                 "--reader", "libnfc:pn532_uart:\(configuredPath)", "--timeout", "20"],
                                environment: ["LIBNFC_DEVICE": "pn532_uart:\(configuredPath)"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try ScanJSON.decode(result.stdout)
        #expect(report.uid == tag.uid.hexString)
        #expect(report.reader == "libnfc:pn532_uart:\(namedPath)")
        #expect(Self.opens(configured) == 1, "\(configured.commandLog)")
        #expect(Self.opens(named) == 1, "\(named.commandLog)")
        #expect(Array(configured.commandLog.suffix(3)) == Self.closeSequence)
        #expect(Array(named.commandLog.suffix(3)) == Self.closeSequence)
    }

    /// A device that cannot be opened: the scan ends at once with "no reader" (3), not after its
    /// --timeout, exactly as when the session opened it.
    @Test func anUnopenableDeviceEndsTheScanWithNoReader() throws {
        let started = ContinuousClock.now
        let result = try runCLI(["scan", "--json", "--reader", "libnfc:pn532_uart:/nonexistent/tty", "--timeout", "30"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("nfctap: error: "), "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    /// With --trace nothing is opened ahead (the trace must see every exchange from the start):
    /// the session opens the device, once, and the trace shows the tag's exchanges.
    @Test func withTraceTheSessionOpensTheDeviceOnce() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0x94), ndef: ScanVectors.uriMessage)
        let emulator = PN532Emulator(tag: tag)
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runCLI(["scan", "--json", "--trace", "--reader", "libnfc:pn532_uart:\(path)", "--timeout", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ScanJSON.decode(result.stdout).uid == tag.uid.hexString)
        #expect(result.stderr.contains("connect libnfc:pn532_uart:\(path)"), "\(result.stderr)")
        #expect(Self.opens(emulator) == 1, "\(emulator.commandLog)")
    }
}

/// The open-ahead in this process (it is once per process: this is its only user among the tests
/// here; another test's slot that claims a device this one did not list gets nil and opens its own).
@Suite("LibNFCOpenAhead in process", .enabled(if: SystemEnvironment.available("libnfc")))
struct LibNFCOpenAheadTests {
    /// A session that asks before the open has run waits for it and gets the device (opened once);
    /// a listed device nobody claims is closed after the lifetime given.
    @Test func aWaitingSessionGetsTheDeviceAndAnUnclaimedOneIsClosed() throws {
        let claimed = PN532Emulator(tag: nil)
        let claimedConnstring = "pn532_uart:\(try claimed.start())"
        defer { claimed.stop() }
        let unclaimed = PN532Emulator(tag: nil)
        let unclaimedConnstring = "pn532_uart:\(try unclaimed.start())"
        defer { unclaimed.stop() }
        let ticket = try #require(LibNFCOpenAhead.reserve())
        #expect(LibNFCOpenAhead.reserve() == nil)

        // The session's backend lists its device before anything was opened: it must wait.
        let backend = LibNFCBackend(devices: [claimedConnstring])
        let listed = Mutex<[String]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let names = (try? backend.listReaders())?.map(\.name)
            listed.withLock { $0 = names ?? [] }
            done.signal()
        }
        usleep(100_000)
        #expect(listed.withLock { $0 } == nil, "the backend did not wait for the open ahead")
        #expect(ScanOpenAheadTests.opens(claimed) == 0)

        ticket.prepare(adding: [claimedConnstring, unclaimedConnstring]).open(closingUnclaimedAfter: .milliseconds(300))
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(listed.withLock { $0 } == ["libnfc:\(claimedConnstring)"])
        #expect(ScanOpenAheadTests.opens(claimed) == 1, "\(claimed.commandLog)")
        #expect(ScanOpenAheadTests.opens(unclaimed) == 1, "\(unclaimed.commandLog)")

        // The unclaimed device is closed (nfc_close's sequence) once its lifetime is over; the
        // claimed one stays open until its backend closes it.
        for _ in 0..<100 where Array(unclaimed.commandLog.suffix(3)) != ScanOpenAheadTests.closeSequence { usleep(50_000) }
        #expect(Array(unclaimed.commandLog.suffix(3)) == ScanOpenAheadTests.closeSequence)
        #expect(Array(claimed.commandLog.suffix(3)) != ScanOpenAheadTests.closeSequence)
        backend.close()
        #expect(Array(claimed.commandLog.suffix(3)) == ScanOpenAheadTests.closeSequence)
        #expect(ScanOpenAheadTests.opens(claimed) == 1)
    }
}
