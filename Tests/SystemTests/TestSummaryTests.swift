import Foundation
import Testing

/// scripts/test-summary.sh: the lines scripts/test.sh ends with, from real-shaped outputs.
@Suite struct TestSummaryTests {
    static let script = SystemEnvironment.packageRoot.appendingPathComponent("scripts/test-summary.sh").path

    static func run(_ args: [String], input: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-summary-\(UUID().uuidString)")
        try input.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try runProgram("/bin/bash", ["-c", "\"$0\" \"$@\" < \"\(file.path)\"", script] + args)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    static let swiftTestingFailure = """
        ◇ Test run started.
        ✔ Test decodes() passed after 0.001 seconds.
        ✘ Test "torn write keeps the old message" recorded an issue at Type2WriteTests.swift:41:9: Expectation failed
        ✘ Test "torn write keeps the old message" failed after 0.004 seconds with 1 issue.
        ➜ Test needsReader() skipped: "no reader"
        ✘ Suite Type2WriteTests failed after 0.005 seconds with 1 issue.
        ✘ Test run with 12 tests in 3 suites failed after 0.006 seconds with 1 issue.

        """

    @Test func ringCountsFailuresSkipsAndTheFirstFailure() throws {
        let record = try Self.run(["ring", "unit+protocol", "1"], input: Self.swiftTestingFailure)
        let total = try Self.run(["total", "1"], input: record)
        #expect(total == """
            unit+protocol: 10 passed, 1 failed (1 skipped)
            first failure: "torn write keeps the old message" at Type2WriteTests.swift:41:9
            tests: 10 passed, 1 failed

            """)
    }

    @Test func aCrashBeforeTheClosingLineIsAFailure() throws {
        let record = try Self.run(["ring", "system", "139"], input: "✔ Test a() passed after 0.1 seconds.\n")
        let total = try Self.run(["total", "1"], input: record)
        #expect(total.hasPrefix("system: 1 passed, 1 failed (swift test exited with status 139 before its closing line)\n"))
        #expect(total.hasSuffix("tests: 1 passed, 1 failed\n"))
    }

    @Test func soakAndFuzzVerdictsAndTheTotal() throws {
        var records = try Self.run(["ring", "system", "0"], input: "✔ Test run with 3 tests in 1 suite passed after 1 seconds.\n")
        records += try Self.run(["soak", "0"], input: "soak: 500/500 taps handled\nPASS: 500 taps, 500 lines; RSS +12 KiB (limit +512)\n")
        records += try Self.run(["fuzz", "1"], input: """
            target            execs   exec/s  result notes
            atr           12 inputs        -  ok     1 s
            type2         30 inputs        -  STRICT an accepted finding is not reported in strict mode

            """)
        let total = try Self.run(["total", "1"], input: records)
        #expect(total == """
            system: 3 passed, 0 failed
            soak: 1 passed, 0 failed (PASS: 500 taps, 500 lines; RSS +12 KiB (limit +512))
            fuzz: 1 passed, 1 failed (targets, ASan; type2 STRICT)
            first failure: fuzz: type2 STRICT
            tests: 5 passed, 1 failed

            """)
    }

    @Test func aRunThatStopsBeforeAnyRingStillEndsWithAFailedTotal() throws {
        let total = try Self.run(["total", "2"], input: "")
        #expect(total.hasSuffix("tests: 0 passed, 1 failed\n"))
        #expect(total.contains("first failure: the run stopped with status 2 before the tests"))
    }
}
