import Foundation
import NDEF
import NFCTapKitTestSupport
import Testing

/// The record files of `inventory` and `kiosk` under faults a user will hit, through the CLI as
/// a user runs it. None of these needs a reader: every check happens before (or without) a tap,
/// with pcscd pointed at a socket that does not exist.
@Suite("records: output files under faults (command line)")
struct RecordsCLITests {
    /// No pcscd, no libnfc device: what a machine with the daemon stopped gives.
    static func noService(_ dir: TemporaryDirectory) -> [String: String] {
        ["PCSCLITE_CSOCK_NAME": dir.path("no-pcscd.comm"), "LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""]
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("a file that is not an inventory (settings.json) is refused, exit 1, byte for byte untouched, even without pcscd",
          arguments: ["{\"important\": true}", "{\"important\": true}\n", "{\"seq\":1,\"time\":\"t\",\"uid\":\"04\"}\nnot ours\n"])
    func foreignFileUntouched(content: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("settings.json")
        try content.write(toFile: path, atomically: false, encoding: .utf8)
        let r = try runCLI(["inventory", "--output", path, "--timeout", "1"], environment: Self.noService(dir))
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(path) exists and is not nfctap's records in jsonl format: left untouched"))
        #expect(Self.bytes(path) == Data(content.utf8))
    }

    @Test("a symbolic link planted as --output is not followed: exit 1, its target untouched")
    func symlinkRefused() throws {
        let dir = try TemporaryDirectory()
        let target = dir.path("passwd-copy")
        try "root:x:0:0\n".write(toFile: target, atomically: false, encoding: .utf8)
        let link = dir.path("taps.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let r = try runCLI(["inventory", "--output", link, "--timeout", "1"], environment: Self.noService(dir))
        #expect(r.status == 1)
        #expect(r.stderr.contains("is a symbolic link: refusing to follow it"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "root:x:0:0\n")
    }

    @Test("a FIFO nobody reads is refused at once (no hang, no tap confirmed into it)")
    func fifoRefused() throws {
        let dir = try TemporaryDirectory()
        let fifo = dir.path("taps.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try runCLI(["inventory", "--output", fifo, "--timeout", "1"], environment: Self.noService(dir), timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.contains("is a FIFO (named pipe), not a regular file"))
    }

    @Test("a file locked by another process: inventory refused at the start, exit 1, naming the holder's PID")
    func lockedByThisProcess() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("taps.jsonl")
        let fd = open(path, O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        #expect(fcntl(fd, F_SETLK, &request) == 0)
        let r = try runCLI(["inventory", "--output", path, "--timeout", "1"], environment: Self.noService(dir))
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(path) is in use by process \(getpid())"))
    }

    static func kioskConfig(_ dir: TemporaryDirectory, output: String, extra: String = "") throws -> String {
        let config = dir.path("kiosk-\(UUID().uuidString).json")
        try #"{"action": "json", "output": "\#(output)", "backends": {"pcsc": true, "libnfc": []}\#(extra)}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        return config
    }

    @Test("two kiosks (or a kiosk and an inventory) on one output: the second is refused naming the first's PID")
    func secondProcessRefused() throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("taps.jsonl")
        let config = try Self.kioskConfig(dir, output: output)
        let first = try KioskProcess(arguments: ["kiosk", "--config", config], environment: Self.noService(dir))
        first.waitForLog("kiosk starting") { $0.hasPrefix("<5>kiosk starting") }
        let pid = first.process.processIdentifier

        let second = try runCLI(["kiosk", "--config", config], environment: Self.noService(dir), timeout: 20)
        #expect(second.status == 1)
        #expect(second.stderr.contains("is in use by process \(pid)"))
        let inventory = try runCLI(["inventory", "--output", output, "--timeout", "1"], environment: Self.noService(dir))
        #expect(inventory.status == 1)
        #expect(inventory.stderr.contains("\(output) is in use by process \(pid)"))
        #expect(first.terminate() == 0)
    }

    @Test("kiosk: an output that is not the kiosk's is refused at the start (exit 1) and left untouched")
    func kioskForeignOutput() throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("notes.txt")
        try "shopping list\n".write(toFile: output, atomically: false, encoding: .utf8)
        let r = try runCLI(["kiosk", "--config", try Self.kioskConfig(dir, output: output)], environment: Self.noService(dir), timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not nfctap's records in jsonl format"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "shopping list\n")
    }

    @Test("kiosk SIGHUP after logrotate moved the output: a new file is opened at the path, the kiosk goes on")
    func kioskSIGHUPReopens() throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("taps.jsonl")
        let kiosk = try KioskProcess(arguments: ["kiosk", "--config", try Self.kioskConfig(dir, output: output)],
                                     environment: Self.noService(dir))
        kiosk.waitForLog("kiosk starting") { $0.hasPrefix("<5>kiosk starting") }
        kiosk.waitForLog("session started") { $0.hasPrefix("<6>session started") }
        #expect(rename(output, dir.path("taps.jsonl.1")) == 0)
        // The signal source may be registered a moment after the first log lines: SIGHUP again
        // until it is heard (a reload is idempotent).
        for _ in 0..<20 where !kiosk.lines.contains(where: { $0.hasPrefix("<5>configuration reloaded") }) {
            kiosk.signal(SIGHUP)
            usleep(250_000)
        }
        kiosk.waitForLog("reloaded") { $0.hasPrefix("<5>configuration reloaded") }
        #expect(FileManager.default.fileExists(atPath: output))
        // The new file is the one locked now: another process is refused on it.
        let other = try runCLI(["inventory", "--output", output, "--timeout", "1"], environment: Self.noService(dir))
        #expect(other.stderr.contains("is in use by process \(kiosk.process.processIdentifier)"))
        #expect(kiosk.terminate() == 0)
    }

    @Test("kiosk timeoutSeconds out of range is refused at the start, naming the key", arguments: ["1e-9", "0.05", "7200"])
    func kioskTimeoutBounds(value: String) throws {
        let dir = try TemporaryDirectory()
        let config = try Self.kioskConfig(dir, output: dir.path("taps.jsonl"), extra: #", "timeoutSeconds": \#(value)"#)
        let r = try runCLI(["kiosk", "--config", config], environment: Self.noService(dir), timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.contains(#"timeoutSeconds\": must be from 0.1 to 3600 seconds"#))
    }

    @Test("decode --json: C1, bidi and U+2028/9 from a tag are \\u escapes (same text after parsing); human output escapes them too")
    func hostileTextEscaped() throws {
        let hostile = "a\u{9B}31mb\u{202E}c\u{2028}d\u{2029}e\u{200F}f"
        let hex = try NDEFMessage(records: [.text(hostile, language: "en")]).encoded().hexString
        let json = try runCLI(["decode", "--json", hex])
        #expect(json.status == 0)
        for raw in ["\u{9B}", "\u{202E}", "\u{2028}", "\u{2029}", "\u{200F}"] {
            #expect(!json.stdout.unicodeScalars.contains(raw.unicodeScalars.first!))
        }
        #expect(json.stdout.contains("\\u009b31mb\\u202ec\\u2028d\\u2029e\\u200ff"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.first?["text"] as? String == hostile)

        let human = try runCLI(["decode", hex])
        #expect(human.status == 0)
        #expect(!human.stdout.unicodeScalars.contains { [0x9B, 0x202E, 0x2028, 0x2029, 0x200F].contains($0.value) })
        #expect(human.stdout.contains("\\u{2028}"))
    }
}
