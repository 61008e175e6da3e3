import Foundation
import Testing
@testable import NFCTapKit

/// The kiosk's configuration file: every key read, every mistake named precisely.
@Suite("Kiosk configuration")
struct KioskConfigurationTests {
    static func parse(_ json: String, programs: Set<String> = ["/usr/local/bin/on-tap", "register-printer"]) throws -> KioskConfiguration {
        try KioskConfiguration.parse(Data(json.utf8), source: "kiosk.json", commandExists: programs.contains)
    }

    static func problem(_ json: String) -> String? {
        do {
            _ = try parse(json)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("Examples/kiosk.json (what the README installs) is valid and means what it says")
    func example() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Examples/kiosk.json").path
        let c = try KioskConfiguration.load(path: path)
        var expected = KioskConfiguration()
        expected.action = .json
        expected.output = .file("/var/lib/nfctap/taps.jsonl")
        expected.duplicateWindow = .seconds(2)
        expected.commandTimeout = .seconds(5)
        #expect(c == expected)
        #expect(c.readerFilter == .all)
        #expect(c.libnfcDevices == nil)
    }

    @Test("every key")
    func everyKey() throws {
        let c = try Self.parse("""
            {"readers": ["ACR122", "libnfc:pn532"], "backends": {"pcsc": false, "libnfc": ["pn532_uart:/dev/ttyUSB0"]},
             "action": "exec", "command": "/usr/local/bin/on-tap --site 'Hall 3'", "timeoutSeconds": 2.5,
             "output": "-", "sync": false, "feedback": false, "duplicateWindowSeconds": 0.25, "logLevel": "debug",
             "trace": true, "ioTimeoutSeconds": 2}
            """)
        #expect(c.readers == ["ACR122", "libnfc:pn532"])
        #expect(c.readerFilter == .nameContainsAny(["ACR122", "libnfc:pn532"]))
        #expect(!c.pcsc)
        #expect(c.libnfcDevices == ["pn532_uart:/dev/ttyUSB0"])
        #expect(c.action == .exec(arguments: ["/usr/local/bin/on-tap", "--site", "Hall 3"]))
        #expect(c.commandTimeout == .milliseconds(2500))
        #expect(c.output == .standardOutput)
        #expect(!c.sync)
        #expect(!c.feedback)
        #expect(c.trace)
        #expect(c.duplicateWindow == .milliseconds(250))
        #expect(c.operationTimeout == .seconds(2))
        #expect(try Self.parse(#"{"action": "json", "ioTimeoutSeconds": 0}"#).operationTimeout == nil)
        #expect(try Self.parse(#"{"action": "json"}"#).operationTimeout == .seconds(5))
        #expect(c.logLevel == .debug)

        let pair = try Self.parse(#"{"action": "pair", "pairWith": "bluez", "bluetooth": {"adapter": "hci1", "le": true, "pin": "0000"}}"#)
        #expect(pair.action == .pair(.bluez))
        #expect(pair.pairingOptions.adapter == "hci1")
        #expect(pair.pairingOptions.forceLE)
        #expect(pair.pairingOptions.pin == "0000")
        #expect(try Self.parse(#"{"action": "pair", "pairWith": "exec:register-printer -v"}"#).action == .pair(.exec(arguments: ["register-printer", "-v"])))
        #expect(try Self.parse(#"{"action": "pair", "pairWith": "json"}"#).action == .pair(.json))
    }

    @Test("mistakes: each names the file, the key and the fix", arguments: [
        (#"{"action": "json", "outptu": "/x"}"#,
         #"kiosk.json: "outptu": unknown setting (known: action, backends, bluetooth, command, duplicateWindowSeconds, feedback, homeassistant, ioTimeoutSeconds, logLevel, output, pairWith, publish, readers, sync, timeoutSeconds, trace)"#),
        (#"{"output": "/x"}"#, #"kiosk.json: "action": missing: say what to do with each tag ("json", "exec" or "pair")"#),
        (#"{"action": "print"}"#, #"kiosk.json: "action": unknown action "print" (one of: json, exec, pair)"#),
        (#"{"action": 1}"#, #"kiosk.json: "action": expected a string, got a number"#),
        (#"{"action": "exec"}"#, #"kiosk.json: "command": missing: "action": "exec" needs the program to run"#),
        (#"{"action": "exec", "command": "/nope/prog"}"#, #"kiosk.json: "command": program not found: /nope/prog (give an absolute path or a name on PATH)"#),
        (#"{"action": "exec", "command": "/usr/local/bin/on-tap 'x"}"#, #"kiosk.json: "command": --exec: unterminated ' in the command line"#),
        (#"{"action": "json", "command": "/usr/local/bin/on-tap"}"#, #"kiosk.json: "command": only used with "action": "exec""#),
        (#"{"action": "pair"}"#, #"kiosk.json: "pairWith": missing: "action": "pair" needs "bluez", "json" or "exec:COMMAND""#),
        (#"{"action": "pair", "pairWith": "cups"}"#, #"kiosk.json: "pairWith": unknown handler "cups" (one of: bluez, json, exec:COMMAND)"#),
        (#"{"action": "json", "output": "taps.jsonl"}"#, #"kiosk.json: "output": must be an absolute path or "-" for stdout, got "taps.jsonl""#),
        (#"{"action": "json", "feedback": "yes"}"#, #"kiosk.json: "feedback": expected true or false, got a string"#),
        (#"{"action": "json", "feedback": 1}"#, #"kiosk.json: "feedback": expected true or false, got a number"#),
        (#"{"action": "json", "readers": "ACR122"}"#, #"kiosk.json: "readers": expected an array of strings, got a string"#),
        (#"{"action": "json", "readers": ["ACR122", 3]}"#, #"kiosk.json: "readers[1]": expected a string, got a number"#),
        (#"{"action": "json", "readers": [""]}"#, #"kiosk.json: "readers[0]": must not be empty"#),
        (#"{"action": "json", "backends": {"pcsc": false, "libnfc": []}}"#, #"kiosk.json: "backends": no backend is enabled: set "pcsc": true or list libnfc devices"#),
        (#"{"action": "json", "backends": {"nfcpy": true}}"#, #"kiosk.json: "backends.nfcpy": unknown backend (known: pcsc, libnfc)"#),
        (#"{"action": "json", "backends": {"libnfc": "pn532_uart:/dev/ttyS0"}}"#, #"kiosk.json: "backends.libnfc": expected an array of strings, got a string"#),
        (#"{"action": "json", "timeoutSeconds": 0}"#, #"kiosk.json: "timeoutSeconds": must be from 0.1 to 3600 seconds, got 0.0"#),
        (#"{"action": "json", "timeoutSeconds": 1e-9}"#, #"kiosk.json: "timeoutSeconds": must be from 0.1 to 3600 seconds, got 1e-09"#),
        (#"{"action": "json", "timeoutSeconds": 0.09}"#, #"kiosk.json: "timeoutSeconds": must be from 0.1 to 3600 seconds, got 0.09"#),
        (#"{"action": "json", "timeoutSeconds": 3600.5}"#, #"kiosk.json: "timeoutSeconds": must be from 0.1 to 3600 seconds, got 3600.5"#),
        (#"{"action": "json", "duplicateWindowSeconds": -1}"#, #"kiosk.json: "duplicateWindowSeconds": must be 0 (off) or from 0.1 to 86400 seconds, got -1.0"#),
        (#"{"action": "json", "duplicateWindowSeconds": 1e-9}"#, #"kiosk.json: "duplicateWindowSeconds": must be 0 (off) or from 0.1 to 86400 seconds, got 1e-09"#),
        (#"{"action": "json", "ioTimeoutSeconds": 0.05}"#, #"kiosk.json: "ioTimeoutSeconds": must be 0 (no limit) or from 0.1 to 86400 seconds, got 0.05"#),
        (#"{"action": "json", "ioTimeoutSeconds": -1}"#, #"kiosk.json: "ioTimeoutSeconds": must be 0 (no limit) or from 0.1 to 86400 seconds, got -1.0"#),
        (#"{"action": "json", "logLevel": "verbose"}"#, #"kiosk.json: "logLevel": unknown level "verbose" (one of: trace, debug, info, notice, warning, error, critical)"#),
        (#"{"action": "json", "bluetooth": {"adapter": "hci0", "mac": "x"}}"#, #"kiosk.json: "bluetooth.mac": unknown setting (known: adapter, le, pin)"#),
        (#"{"action": "json", "output": "/var/lib/a\nb"}"#, #"kiosk.json: "output": must not contain control characters"#),
        (#"["json"]"#, #"kiosk.json: expected a JSON object, got an array"#),
    ])
    func mistakes(json: String, message: String) {
        #expect(Self.problem(json) == message)
    }

    @Test("not JSON at all, and a file that cannot be read")
    func unreadable() {
        #expect(Self.problem(#"{"action": "json""#)?.hasPrefix("kiosk.json: not valid JSON (") == true)
        #expect(Self.problem("")?.hasPrefix("kiosk.json: not valid JSON (") == true)
        do {
            _ = try KioskConfiguration.load(path: "/nonexistent/kiosk.json")
            Issue.record("loaded a missing file")
        } catch {
            #expect("\(error)".hasPrefix("/nonexistent/kiosk.json: cannot read the file ("))
        }
    }

    @Test("which changes need a new session")
    func newSession() throws {
        let base = try Self.parse(#"{"action": "json", "output": "/a"}"#)
        #expect(!base.needsNewSession(comparedTo: try Self.parse(#"{"action": "json", "output": "/b", "logLevel": "debug"}"#)))
        #expect(base.needsNewSession(comparedTo: try Self.parse(#"{"action": "json", "output": "/a", "readers": ["x"]}"#)))
        #expect(base.needsNewSession(comparedTo: try Self.parse(#"{"action": "json", "output": "/a", "feedback": false}"#)))
        #expect(base.needsNewSession(comparedTo: try Self.parse(#"{"action": "json", "output": "/a", "backends": {"libnfc": []}}"#)))
    }
}
