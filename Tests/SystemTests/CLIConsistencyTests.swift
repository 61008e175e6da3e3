import Foundation
import TagEmulation
import Testing

/// Issue 27 item 2, "CLI consistency": one error format, one JSON writer with `schemaVersion` first
/// and the documented key order, and output that cannot be written failing the command
/// (docs/json-output.md).
@Suite struct CLIConsistencyTests {
    /// Runs the CLI with stdout on /dev/full (every write fails with ENOSPC); status and stderr.
    static func runToFullDevice(_ args: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SystemEnvironment.cliPath)
        process.arguments = args
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let err = Pipe()
        process.standardOutput = full
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// A URI record, https://example.com.
    static let uriMessage = "D1010C5502" + "6578616D706C652E636F6D"

    @Test("argument errors and command errors share one format: `nfctap: error: …`", arguments: [
        (["no-such-command"], Int32(64)),
        (["scan", "--timeout", "-1"], Int32(64)),
        (["decode", "D1", "--file", "/nonexistent"], Int32(64)),
        (["decode", "ZZ"], Int32(1)),
        (["decode", "D1010455"], Int32(1)),
        (["fleet", "status", "/nonexistent/records.jsonl"], Int32(1)),
    ])
    func oneErrorFormat(args: [String], status: Int32) throws {
        let result = try runCLI(args, environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent"])
        #expect(result.status == status, "\(args): \(result.stderr)")
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("nfctap: error: "), "\(args): \(result.stderr)")
        #expect(!result.stderr.contains("\nError: ") && !result.stderr.hasPrefix("Error: "), "\(args): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a failed write to stdout exits non-zero and says so", arguments: [
        ["--version"],
        ["--help"],
        ["scan", "--help"],
        ["decode", CLIConsistencyTests.uriMessage],
        ["decode", "--json", CLIConsistencyTests.uriMessage],
    ])
    func fullStandardOutputFails(args: [String]) throws {
        let result = try Self.runToFullDevice(args)
        #expect(result.status == 1, "\(args): \(result.stderr)")
        #expect(result.stderr.contains("nfctap: error: cannot write the output to stdout"), "\(args): \(result.stderr)")
        // The same command with a working stdout succeeds.
        #expect(try runCLI(args).status == 0)
    }

    @Test("fleet status --json to a full stdout fails; its keys come in the documented order")
    func fleetStatus() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-consistency-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("records.jsonl").path
        try Data().write(to: URL(fileURLWithPath: file))
        let ok = try runCLI(["fleet", "status", file, "--json"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.hasPrefix(#"{"schemaVersion":1,"file":"#), "\(ok.stdout)")
        let keys = ["file", "acknowledgedRecords", "acknowledgedBytes", "backlogRecords", "backlogBytes", "fileId",
                    "oldestUnsentAgeSeconds", "lastAcknowledgedAgeSeconds"]
        let positions = keys.compactMap { ok.stdout.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted(), "\(ok.stdout)")
        let full = try Self.runToFullDevice(["fleet", "status", file, "--json"])
        #expect(full.status == 1, "\(full.stderr)")
    }

    @Test("decode --json starts with schemaVersion")
    func decodeJSONIsVersioned() throws {
        let result = try runCLI(["decode", "--json", Self.uriMessage])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"schemaVersion":1,"#), "\(result.stdout)")
    }
}

extension PCSCSystemTests {
    @Test("readers --json: schemaVersion, then the keys its help lists, in that order")
    func readersJSONKeyOrder() throws {
        let result = try runCLI(["readers", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"[{"schemaVersion":1,"name":"#), "\(result.stdout)")
        let first = result.stdout.components(separatedBy: "},{").first ?? ""
        let positions = ["schemaVersion", "name", "backend", "feedback", "tag"].compactMap { first.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == 5 && positions == positions.sorted(), "\(result.stdout)")
        let full = try CLIConsistencyTests.runToFullDevice(["readers", "--json"])
        #expect(full.status == 1, "\(full.stderr)")
    }

    @Test("scan --json to a full stdout reads the tag and exits 1")
    func scanToFullStandardOutput() throws {
        let card = VPCDCard(behaviour: EmulatedPCSCReader(profile: .generic, tag: VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage)),
                            port: TestPCSCD.port0)
        try card.insert()
        defer { card.stop() }
        let full = try CLIConsistencyTests.runToFullDevice(["scan", "--json", "--timeout", "20", "--reader", TestPCSCD.reader0])
        card.remove()
        #expect(full.status == 1, "\(full.stderr)")
        #expect(full.stderr.contains("nfctap: error: cannot write the output to stdout"), "\(full.stderr)")
    }
}
