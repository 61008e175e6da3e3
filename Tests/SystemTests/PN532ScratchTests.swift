import Foundation
import Testing
@testable import TagEmulation

@Test func scratchNfcList() throws {
    let emu = PN532Emulator(tag: FixtureType2Tag())
    let path = try emu.start()
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/nfc-list")
    p.arguments = ProcessInfo.processInfo.environment["SCRATCH_ARGS"].map { $0.split(separator: " ").map(String.init) } ?? []
    p.environment = ["LIBNFC_DEVICE": "pn532_uart:\(path)", "LIBNFC_LOG_LEVEL": "3", "LIBNFC_AUTO_SCAN": "false"]
    try p.run()
    p.waitUntilExit()
    print("exit", p.terminationStatus, "frames", emu.framesReceived)
    for c in emu.commandLog { print(c.map { String(format: "%02X", $0) }.joined(separator: " ")) }
    emu.stop()
}
