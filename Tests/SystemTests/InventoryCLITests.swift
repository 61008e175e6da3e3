import Foundation
import NFCTapKitTestSupport
import Testing

/// `nfctap inventory` checks that need no reader: they happen before the session starts.
@Suite("nfctap inventory (command line)")
struct InventoryCLITests {
    @Test("an --output in a directory that does not exist: exit 1, a clear message, nothing created")
    func missingDirectory() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("no-such-dir/taps.csv")
        let r = try runCLI(["inventory", "--output", path, "--timeout", "1"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("the directory \(dir.path("no-such-dir")) does not exist"))
        #expect(r.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.path("no-such-dir")))
    }

    @Test("a file that is not an inventory is refused (exit 1) and left as it was")
    func foreignFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("notes.csv")
        try "name,phone\r\n".write(toFile: path, atomically: false, encoding: .utf8)
        let r = try runCLI(["inventory", "--output", path, "--timeout", "1"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not nfctap's records in csv format"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "name,phone\r\n")
    }

    @Test("no pcscd (and no libnfc device) at the start: exit 3 with the hint, nothing written")
    func noService() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.jsonl")
        let r = try runCLI(["inventory", "--output", path, "--timeout", "1"],
                           environment: ["PCSCLITE_CSOCK_NAME": dir.path("no-pcscd.comm"), "LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""])
        #expect(r.status == 3)
        #expect(r.stderr.contains("pcscd"))
        #expect(!r.stderr.contains("Inventory: tap tags"))
        #expect(r.stdout.isEmpty)
    }

    @Test("bad numbers are usage errors", arguments: [["--timeout", "0"], ["--timeout", "nan"], ["--duplicate-window", "-1"]])
    func usage(args: [String]) throws {
        let r = try runCLI(["inventory"] + args)
        #expect(r.status == 64)
    }
}
