@testable import CoreNFCLinux
import Foundation
import NDEF
@testable import nfctap
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3: `inventory` as a process through pcscd + vpcd, its output rotated and filled up.
    /// Nested in the PC/SC suite so it is serialized with the other tests sharing the daemon.
    @Suite("records: inventory output faults through pcscd + vpcd")
    struct RecordsOverPCSC {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static func tap(_ n: UInt8, _ cli: LiveCLI, expect: String) throws {
            let card = VPCDCard(behaviour: EmulatedVPCDCard(tag: try inventoryTag(uid: n, uri: "https://example.com/tap/\(n)")),
                                port: TestPCSCD.port0)
            try card.insert()
            cli.waitFor(expect)
            card.remove()
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        @Test("SIGHUP (logrotate): inventory does not die; records after it go to a new file at the path")
        func sighupReopens() throws {
            let dir = try InventoryTempDirectory()
            let path = dir.path("taps.jsonl")
            let cli = try LiveCLI(["inventory", "--output", path, "--reader", TestPCSCD.reader0])
            cli.waitFor("Inventory: tap tags")
            try Self.tap(1, cli, expect: "✓ #1 ")
            #expect(rename(path, dir.path("taps.jsonl.1")) == 0)
            cli.signal(SIGHUP)
            let deadline = Date(timeIntervalSinceNow: 10)
            while !FileManager.default.fileExists(atPath: path), Date() < deadline { usleep(10_000) }
            #expect(cli.process.isRunning)
            try Self.tap(2, cli, expect: "✓ #2 ")
            cli.signal(SIGTERM)
            #expect(cli.finish() == 0)
            let old = try parseJSONLines(try String(contentsOfFile: dir.path("taps.jsonl.1"), encoding: .utf8))
            let new = try parseJSONLines(try String(contentsOfFile: path, encoding: .utf8))
            #expect(old.map { $0["seq"] as? Int } == [1])
            #expect(new.map { $0["seq"] as? Int } == [2])
        }

        /// A file size limit (RLIMIT_FSIZE, as `prlimit --fsize`) makes the kernel store part of
        /// the second record and then refuse the rest (EFBIG), as a full disk does (ENOSPC).
        @Test("the disk fills up mid-record: the partial record is cut back, the tap is red, exit 1, every line whole")
        func fileLimitMidRecord() throws {
            let dir = try InventoryTempDirectory()
            let path = dir.path("taps.jsonl")
            // A record here is about 200 bytes: the first fits, the second is cut short.
            let cli = try LiveCLI(["inventory", "--output", path, "--reader", TestPCSCD.reader0],
                                  launcher: ["/usr/bin/prlimit", "--fsize=300", "--"])
            cli.waitFor("Inventory: tap tags")
            try Self.tap(1, cli, expect: "✓ #1 ")
            try Self.tap(2, cli, expect: "inventory stopped")
            #expect(cli.finish() == 1)
            #expect(cli.stderr.contains("writing to \(path) failed: File too large"))
            #expect(!cli.stderr.contains("✓ #2 "))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.hasSuffix("\n"))
            #expect(try parseJSONLines(text).map { $0["seq"] as? Int } == [1])
        }
    }
}
