import Foundation
import TagEmulation
import Testing

// Ring 3: shutdown is part of the thread rules. A program that calls exit(0)
// right after `invalidate()` must end cleanly every time: no library thread inside pcsc-lite while
// the library tears itself down (`MonitorsAtExit`, `ReaderLane`'s exit drain, PCSC's `LibraryGate`).
extension PCSCSystemTests {
    /// The bench's probe, next to the CLI under test.
    static var probePath: String {
        URL(fileURLWithPath: SystemEnvironment.cliPath).deletingLastPathComponent().appendingPathComponent("nfctap-bench").path
    }

    /// Runs the probe `runs` times; each run that did not exit 0: its status (a signal shows as
    /// 128 + its number) and what it wrote to stderr (a runtime or C library message names the cause).
    static func runProbe(_ runs: Int, arguments: [String] = []) throws -> [String] {
        var failures: [String] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: probePath)
            process.arguments = ["exit-after-invalidate"] + arguments
            process.standardOutput = FileHandle.nullDevice
            let stderr = Pipe()
            process.standardError = stderr
            try process.run()
            let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
            if status != 0 { failures.append("status \(status): \(text.suffix(2000))") }
        }
        return failures
    }

    @Test("exit(0) right after invalidate(), 500 times: every run ends cleanly")
    func exitRightAfterInvalidate() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.probePath), "build nfctap-bench first")
        let failures = try Self.runProbe(500)
        #expect(failures.isEmpty, "runs that did not exit 0 (status 128 + n: signal n): \(failures)")
    }

    @Test("exit(0) right after a tag was read and the session invalidated, 100 times")
    func exitRightAfterARead() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.probePath), "build nfctap-bench first")
        let card = VPCDCard(behaviour: EmulatedPCSCReader(profile: .generic, tag: VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage)),
                            port: TestPCSCD.port0)
        try card.insert()
        defer { card.stop() }
        try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader0)
        let failures = try Self.runProbe(100, arguments: ["--read"])
        #expect(failures.isEmpty, "runs that did not exit 0 (status 128 + n: signal n): \(failures)")
        card.remove()
    }
}
