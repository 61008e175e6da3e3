import Foundation
import NFCTapKitTestSupport
import Testing

/// A process may start with signals blocked: the mask is inherited from whatever started it (a
/// program spawning from a dispatch worker thread passes on a mask that blocks them all). nfctap
/// must still hear SIGHUP and SIGTERM (`SignalTrap`'s signal thread takes every signal).
@Suite("nfctap started with its signals blocked still reloads on SIGHUP and stops on SIGTERM", .serialized)
struct InheritedSignalMaskTests {
    /// Blocks SIGINT, SIGTERM and SIGHUP, checks that they are blocked (else exits 99 and the
    /// kiosk never starts: the test would prove nothing), then becomes the CLI (execve keeps the
    /// mask, POSIX.1).
    static let blockingLauncher = [
        "/usr/bin/python3", "-c",
        "import os, signal, sys; wanted = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}; signal.pthread_sigmask(signal.SIG_BLOCK, wanted); "
            + "sys.exit(99) if not wanted <= signal.pthread_sigmask(signal.SIG_BLOCK, []) else os.execv(sys.argv[1], sys.argv[1:])",
    ]

    @Test("kiosk: SIGHUP reloads the configuration, SIGTERM ends it with status 0")
    func kioskHearsBlockedSignals() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("kiosk.json").path
        let output = dir.appendingPathComponent("taps.jsonl").path
        try #"{"action": "json", "output": "\#(output)", "readers": ["No Such Reader"]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config], launcher: Self.blockingLauncher)
        kiosk.waitForLog("kiosk starting") { $0.contains("kiosk starting") }

        kiosk.signal(SIGHUP)
        kiosk.waitForLog("configuration reloaded", timeout: 15) { $0.contains("configuration reloaded") }
        #expect(kiosk.lines.contains { $0.contains("configuration reloaded") })
        #expect(kiosk.terminate() == 0)
    }
}
