import Foundation
import Testing

/// The README's main command (scripts/run.sh) on a machine with no reader: it says so and runs the
/// built-in demo. pcscd is pointed at a socket where nothing listens, as on a machine without it.
@Suite struct RunScriptTests {
    @Test func noReaderRunsTheDemoAndSaysSo() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [SystemEnvironment.packageRoot.appendingPathComponent("scripts/run.sh").path]
        var env = ProcessInfo.processInfo.environment
        env["NFCTAP_BIN"] = SystemEnvironment.cliPath
        env["NFCTAP_START_PCSCD"] = "0"  // no system pcscd left behind on the test's vpcd ports
        env["PCSCLITE_CSOCK_NAME"] = "/nonexistent/pcscd.comm"
        env["LIBNFC_DEVICE"] = ""
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: errData, as: UTF8.self)
        let stdout = String(decoding: outData, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("no NFC reader found"))
        #expect(stderr.contains("running the built-in demo"))
        // The demo itself ran: its virtual reader and the Zebra printer it reads.
        #expect(stdout.contains("nfctap Virtual Reader"), "\(stdout)")
        #expect(stdout.contains("XXZFJ170700336"), "\(stdout)")
    }
}
