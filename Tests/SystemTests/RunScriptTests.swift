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

    /// A build that fails shows its errors (not only "building" and exit 1): run.sh with a `swift`
    /// on PATH that fails the way a compile error does.
    @Test func aFailedBuildShowsItsErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-fake-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = dir.appendingPathComponent("swift")
        try """
            #!/bin/sh
            echo "[1/9] Compiling nfctap Scan.swift"
            echo "/src/Sources/nfctap/Scan.swift:12:5: error: cannot find 'tagg' in scope"
            echo "   |     \\`- error: cannot find 'tagg' in scope"
            exit 1
            """.write(to: fake, atomically: true, encoding: .utf8)
        chmod(fake.path, 0o755)
        let path = dir.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try runProgram("/bin/bash", [SystemEnvironment.packageRoot.appendingPathComponent("scripts/run.sh").path],
                               environment: ["PATH": path, "NFCTAP_START_PCSCD": "0", "NFCTAP_BIN": ""])
        #expect(r.status == 1)
        #expect(r.stderr.contains("Scan.swift:12:5: error: cannot find 'tagg' in scope"), "\(r.stderr)")
        #expect(r.stderr.contains("the build failed"))
        #expect(!r.stderr.contains("[1/9]"), "progress lines are dropped")
    }
}
