import Foundation
import LibNFC
import Testing
@testable import TagEmulation
import TestSupport

/// The LibNFC wrapper's calls that the backend does not exercise, against the PN532 emulator.
@Suite("LibNFC wrapper with the PN532 emulator", .serialized,
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
struct LibNFCWrapperSystemTests {
    @Test func openFailsForAMissingPort() throws {
        let context = try LibNFCContext()
        #expect(throws: LibNFCError.noSuchDevice) { try context.open("pn532_uart:/nonexistent/tty") }
    }

    @Test func pollTargetRunsInAutoPoll() throws {
        let emulator = PN532Emulator(tag: FixtureType2Tag())
        let path = try emulator.start()
        defer { emulator.stop() }
        let context = try LibNFCContext()
        let device = try context.open("pn532_uart:\(path)")
        defer { device.close() }
        #expect(device.name == "pn532_uart:\(path)")
        try device.initiatorInit()
        let target = try #require(try device.pollTarget(pollCount: 1, period: 1))
        #expect(target == LibNFCTarget(atqa: [0x00, 0x44], sak: 0x00, uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80]))
        #expect(emulator.commandLog.contains { $0.first == 0x60 })  // InAutoPoll
        #expect(try device.targetIsPresent())
        try device.deselect()
        emulator.tag = nil
        // One round of 150 ms with nothing in the field: no target, no error.
        #expect(try device.pollTarget(pollCount: 1, period: 1) == nil)
    }

    /// nfc_abort_command from another thread ends an endless InAutoPoll; the device stays usable.
    @Test func abortInterruptsAnEndlessPoll() throws {
        let emulator = PN532Emulator(tag: nil)
        let path = try emulator.start()
        defer { emulator.stop() }
        let context = try LibNFCContext()
        let device = try context.open("pn532_uart:\(path)")
        defer { device.close() }
        try device.initiatorInit()
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<LibNFCTarget?, Error>?>(nil)
        Thread.detachNewThread {
            let result = Result { try device.pollTarget(pollCount: 0xFF, period: 1) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        // Wait (bounded) until the poll reached the chip, then abort it.
        for _ in 0..<500 where !emulator.commandLog.contains(where: { $0.first == 0x60 }) { usleep(10_000) }
        device.abort()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(throws: LibNFCError.operationAborted) { try outcome.current?.get() }
        emulator.tag = FixtureType2Tag()
        #expect(try device.selectPassiveTarget()?.uid == [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80])
    }
}
