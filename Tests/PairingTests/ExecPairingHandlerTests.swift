import Foundation
import Glibc
import Testing
@testable import Pairing
import ZebraPrinter

/// A scratch directory with a recorder program: it writes its argv, its NFCTAP_<tag field> variables and
/// its stdin to `record.json`, then exits with the status in $RECORDER_EXIT (default 0).
private final class Scratch {
    let dir: URL
    var recorder: String { dir.appendingPathComponent("recorder").path }
    var record: URL { dir.appendingPathComponent("record.json") }
    var marker: String { dir.appendingPathComponent("pwned").path }

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-exec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try write("recorder", """
        #!/usr/bin/python3
        import json, os, sys
        data = sys.stdin.buffer.read().decode("utf-8")
        tags = {"SERIAL", "MODEL", "BT_MAC", "BLE_MAC", "WIFI_MAC", "ETHERNET_MAC", "VERSION"}
        env = {k: v for k, v in os.environ.items() if k.startswith("NFCTAP_") and k[7:] in tags}
        with open(os.path.join(os.path.dirname(sys.argv[0]), "record.json"), "w") as f:
            json.dump({"argv": sys.argv[1:], "env": env, "stdin": data}, f)
        sys.exit(int(os.environ.get("RECORDER_EXIT", "0")))
        """)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        // open(O_CLOEXEC), not Foundation's writer: a write descriptor inherited by a program
        // another test spawns at that moment would make exec fail with ETXTBSY.
        let path = dir.appendingPathComponent(name).path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
        return path
    }

    struct Record: Decodable {
        var argv: [String]
        var env: [String: String]
        var stdin: String
    }

    func readRecord() throws -> Record {
        try JSONDecoder().decode(Record.self, from: Data(contentsOf: record))
    }

    deinit { try? FileManager.default.removeItem(at: dir) }
}

@Suite struct ExecPairingHandlerTests {
    @Test func hostileTagValuesReachTheProgramVerbatimAndNothingElseRuns() throws {
        let s = try Scratch()
        let hostile = [
            "$(touch \(s.marker))",
            "`touch \(s.marker)`",
            "x; touch \(s.marker)",
            "x | touch \(s.marker)",
            "it's \"quoted\" & 'single'\nsecond line",
        ]
        let identity = PrinterIdentity(serial: hostile[0], model: hostile[1],
                                       bluetooth: MACAddress(bytes: [0xCC, 0x78, 0xAB, 0x3E, 0xBA, 0xE0]),
                                       bluetoothLE: MACAddress(bytes: [0, 0, 0, 0, 0, 0]),
                                       version: hostile[2],
                                       otherFields: [QueryField(key: hostile[3], value: hostile[4])])
        let handler = try ExecPairingHandler(commandLine: "\(s.recorder) ';' '|' '$(touch \(s.marker))'")
        let result = try handler.pair(identity, options: PairingOptions())
        #expect(result == .handedOff(CommandOutcome(arguments: handler.arguments, exitStatus: 0)))
        #expect(!FileManager.default.fileExists(atPath: s.marker))

        let r = try s.readRecord()
        #expect(r.argv == [";", "|", "$(touch \(s.marker))"])
        #expect(r.env == [
            "NFCTAP_SERIAL": hostile[0],
            "NFCTAP_MODEL": hostile[1],
            "NFCTAP_BT_MAC": "CC:78:AB:3E:BA:E0",
            "NFCTAP_VERSION": hostile[2],
        ])   // the zero LE MAC and the absent Wi-Fi/Ethernet MACs are unset
        #expect(r.stdin == IdentityJSON.line(identity) + "\n")
        let decoded = try JSONSerialization.jsonObject(with: Data(r.stdin.utf8)) as? [String: Any]
        #expect(decoded?["serial"] as? String == hostile[0])
        let other = decoded?["other"] as? [[String: String]]
        #expect(other == [["key": hostile[3], "value": hostile[4]]])
    }

    @Test func inheritedTagVariablesDoNotLeakIntoTheProgram() throws {
        let s = try Scratch()
        // The environment of this test process is not touched: the inherited variable is
        // simulated through the environment builder's input.
        let env = try ExecPairingHandler.environment(for: PrinterIdentity(serial: "S1"),
                                                     inherited: ["PATH": "/bin", "NFCTAP_WIFI_MAC": "stale"])
        #expect(env == ["PATH": "/bin", "NFCTAP_SERIAL": "S1"])
        _ = try ExecPairingHandler(arguments: [s.recorder]).pair(PrinterIdentity(serial: "S1"), options: PairingOptions())
        #expect(try s.readRecord().env == ["NFCTAP_SERIAL": "S1"])
    }

    @Test(arguments: [0, 3, 255] as [Int32])
    func exitStatusIsTheResult(status: Int32) throws {
        let s = try Scratch()
        let script = try s.write("exit", "#!/bin/sh\ncat >/dev/null\nexit \(status)\n")
        let result = try ExecPairingHandler(arguments: [script]).pair(PrinterIdentity(serial: "S"), options: PairingOptions())
        #expect(result == .handedOff(CommandOutcome(arguments: [script], exitStatus: status)))
    }

    @Test func aProgramThatNeverReadsStdinStillFinishes() throws {
        let s = try Scratch()
        let script = try s.write("noread", "#!/bin/sh\nexec 0<&-\nexit 7\n")
        // More JSON on stdin than a socket buffer holds (unknown fields go to stdin, not the environment).
        let big = PrinterIdentity(serial: "S", otherFields: [QueryField(key: "k", value: String(repeating: "x", count: 1_000_000))])
        let result = try ExecPairingHandler(arguments: [script]).pair(big, options: PairingOptions())
        #expect(result == .handedOff(CommandOutcome(arguments: [script], exitStatus: 7)))
    }

    @Test func timeoutStopsTheProgramAndWhatItStarted() throws {
        let s = try Scratch()
        let pidFile = s.dir.appendingPathComponent("child.pid").path
        let script = try s.write("slow", "#!/bin/sh\nsleep 30 &\necho $! > \(pidFile)\nwait\n")
        var options = PairingOptions()
        options.commandTimeout = .milliseconds(300)
        #expect(throws: PairingError.commandTimedOut(script, seconds: 0.3)) {
            try ExecPairingHandler(arguments: [script]).pair(PrinterIdentity(serial: "S"), options: options)
        }
        let pid = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // The group was signalled; the grandchild dies asynchronously (give a loaded machine 5 s).
        let deadline = Date().addingTimeInterval(5)
        while !Self.isGoneOrZombie(pid), Date() < deadline { usleep(20_000) }
        #expect(Self.isGoneOrZombie(pid))
    }

    @Test func aProgramIgnoringSIGTERMIsKilled() throws {
        let s = try Scratch()
        let script = try s.write("stubborn", "#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 0.05; done\n")
        var runner = ProcessRunner(arguments: [script], environment: [:], input: [], timeout: .milliseconds(100))
        runner.killGrace = .milliseconds(100)
        #expect(throws: PairingError.commandTimedOut(script, seconds: 0.1)) { try runner.run() }
    }

    @Test func killedBySignalIsAnError() throws {
        let s = try Scratch()
        let script = try s.write("selfkill", "#!/bin/sh\nkill -9 $$\n")
        #expect(throws: PairingError.commandKilled(script, signal: SIGKILL)) {
            try ExecPairingHandler(arguments: [script]).pair(PrinterIdentity(serial: "S"), options: PairingOptions())
        }
    }

    @Test func commandNotFound() throws {
        #expect(throws: PairingError.commandNotFound("nfctap-no-such-program-42")) {
            try ExecPairingHandler(commandLine: "nfctap-no-such-program-42 --flag").pair(PrinterIdentity(serial: "S"), options: PairingOptions())
        }
        #expect(throws: PairingError.commandNotFound("/nonexistent/dir/prog")) {
            try ExecPairingHandler(arguments: ["/nonexistent/dir/prog"]).pair(PrinterIdentity(serial: "S"), options: PairingOptions())
        }
    }

    @Test func notExecutableIsATypedError() throws {
        let s = try Scratch()
        let path = try s.write("plain", "not a program")
        chmod(path, 0o644)
        #expect(throws: PairingError.commandNotStartable(path, errno: EACCES)) {
            try ExecPairingHandler(arguments: [path]).pair(PrinterIdentity(serial: "S"), options: PairingOptions())
        }
    }

    @Test func nulInATagValueIsRefused() throws {
        #expect(throws: PairingError.unsafeValue(field: "NFCTAP_MODEL")) {
            try ExecPairingHandler(arguments: ["/bin/true"]).pair(PrinterIdentity(serial: "S", model: "a\0b"), options: PairingOptions())
        }
    }

    @Test("a NUL byte in an argument is refused, not cut short")
    func nulInAnArgumentIsRefused() throws {
        #expect(throws: PairingError.commandNotStartable("/bin/echo", errno: EINVAL)) {
            try ExecPairingHandler(arguments: ["/bin/echo", "a\0b"]).pair(PrinterIdentity(serial: "S"), options: PairingOptions())
        }
    }

    @Test func describeNamesTheProgramAndTheVariables() throws {
        let h = try ExecPairingHandler(commandLine: "/usr/bin/my-tool 'two words'")
        let text = h.describe(PrinterIdentity(serial: "S", model: "M"), options: PairingOptions(commandTimeout: .seconds(5)))
        #expect(text == "would run /usr/bin/my-tool 'two words' with NFCTAP_MODEL, NFCTAP_SERIAL set and the identity as JSON on stdin (stopped after 5 s)")
    }

    /// True when /proc shows no such process, or only its zombie.
    static func isGoneOrZombie(_ pid: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // "pid (comm) S …": the state follows the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }
}
