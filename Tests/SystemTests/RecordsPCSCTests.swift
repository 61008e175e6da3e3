@testable import CoreNFCLinux
import Foundation
import NDEF
@testable import NFCTapKit
import NFCTapKitTestSupport
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
            let dir = try TemporaryDirectory()
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
            let dir = try TemporaryDirectory()
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

        /// A real full disk: the output lives on a 4 KiB tmpfs mounted in a private mount namespace
        /// of the child (`unshare -m`), pre-filled with records to 4000 bytes; the next record
        /// gets 96 bytes in and then ENOSPC. The file is copied out after nfctap exits.
        @Test("a real full disk (ENOSPC on a 4 KiB tmpfs): the partial record is cut back, red, exit 1")
        func realDiskFull() throws {
            let dir = try TemporaryDirectory()
            let mountPoint = dir.path("small")
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            var prefill = ""
            var n = 0
            while prefill.utf8.count < 3800 {
                n += 1
                prefill += #"{"seq":\#(n),"time":"2025-01-01T00:00:00.000Z","uid":"04A1B2C3D4E5F6","type":"type2","product":null,"reader":"x","summary":null,"zebraSerial":null,"duplicate":false,"error":null}"# + "\n"
            }
            let pad = 4000 - prefill.utf8.count
            let head = #"{"seq":\#(n + 1),"time":"2025-01-01T00:00:00.000Z","uid":"04A1B2C3D4E5F6","reader":""#
            let tail = "\"}\n"
            prefill += head + String(repeating: "p", count: pad - head.utf8.count - tail.utf8.count) + tail
            #expect(prefill.utf8.count == 4000)
            try prefill.write(toFile: dir.path("prefill"), atomically: false, encoding: .utf8)
            let script = """
                m=$1; src=$2; out=$3; shift 3
                mount -t tmpfs -o size=4k tmpfs "$m" || exit 99
                cp "$src" "$m/taps.jsonl" || exit 98
                "$@"; status=$?
                cp "$m/taps.jsonl" "$out"
                exit $status
                """
            let cli = try LiveCLI(["inventory", "--output", mountPoint + "/taps.jsonl", "--reader", TestPCSCD.reader0],
                                  launcher: ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                             mountPoint, dir.path("prefill"), dir.path("after")])
            cli.waitFor("Inventory: tap tags")
            try Self.tap(1, cli, expect: "inventory stopped")
            #expect(cli.finish() == 1)
            #expect(cli.stderr.contains("failed: No space left on device"))
            #expect(!cli.stderr.contains("✓ #"))
            #expect(try String(contentsOfFile: dir.path("after"), encoding: .utf8) == prefill)
        }

        /// The kiosk on a full disk: a 4 KiB tmpfs in the child's private mount namespace holding
        /// 4000 bytes of kiosk lines. The tap's line gets part-way and then ENOSPC: it must be cut
        /// back (red), never left as a partial line for the next one to be glued onto.
        @Test("kiosk on a real full disk: the partial line is cut back, the tap is red, the file still parses")
        func kioskRealDiskFull() throws {
            let dir = try TemporaryDirectory()
            let mountPoint = dir.path("small")
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            let line = #"{"uid":"04A1B2C3D4E5F6","type":"type2","product":null,"capacity":null,"writable":null,"reader":"x"}"# + "\n"
            var prefill = String(repeating: line, count: 3800 / line.utf8.count)
            let head = #"{"uid":"04A1B2C3D4E5F6","type":"type2","reader":""#, tail = "\"}\n"
            prefill += head + String(repeating: "p", count: 4000 - prefill.utf8.count - head.utf8.count - tail.utf8.count) + tail
            #expect(prefill.utf8.count == 4000)
            try prefill.write(toFile: dir.path("prefill"), atomically: false, encoding: .utf8)
            let config = dir.path("kiosk.json")
            try PCSCSystemTests.kioskConfig(output: mountPoint + "/taps.jsonl").write(toFile: config, atomically: true, encoding: .utf8)
            // SIGTERM reaches the kiosk through the shell, which then copies the file out.
            let script = """
                m=$1; src=$2; out=$3; shift 3
                mount -t tmpfs -o size=4k tmpfs "$m" || exit 99
                cp "$src" "$m/taps.jsonl" || exit 98
                "$@" & pid=$!
                trap 'kill -TERM $pid' TERM
                wait $pid; wait $pid; status=$?
                cp "$m/taps.jsonl" "$out"
                exit $status
                """
            let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config],
                                         launcher: ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                    mountPoint, dir.path("prefill"), dir.path("after")])
            kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains(TestPCSCD.reader0) }
            let card = VPCDCard(behaviour: EmulatedPCSCReader(profile: .generic, tag: try KioskTags.uri("https://example.com/full", uid: 1)),
                                port: TestPCSCD.port0)
            try card.insert()
            kiosk.waitForLog("the failed tap") { $0.hasPrefix("<3>action result ok=false") }
            card.remove()
            #expect(kiosk.terminate() == 0)
            #expect(kiosk.lines.contains { $0.contains("No space left on device") })
            #expect(try String(contentsOfFile: dir.path("after"), encoding: .utf8) == prefill)
        }
    }
}
