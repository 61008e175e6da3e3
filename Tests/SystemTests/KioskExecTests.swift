import CoreNFCLinux
import Foundation
import NFCTapKitTestSupport
import Pairing
import Synchronization
import TagEmulation
import Testing
@testable import NFCTapKit

/// `"action": "exec"`: argv without a shell, the tag as JSON on stdin, `NFCTAP_*` variables,
/// exit status → feedback.
@Suite("Kiosk exec action")
struct KioskExecTests {
    /// Records what the action asked to run; answers with a fixed status or error.
    final class FakeRunner: ProgramRunning, Sendable {
        struct Call {
            var arguments: [String]
            var environment: [String: String]
            var input: String
            var timeout: Duration
        }
        private let recorded = Mutex<[Call]>([])
        let answer: Result<Int32, PairingError>

        init(_ answer: Result<Int32, PairingError>) { self.answer = answer }

        var calls: [Call] { recorded.withLock { $0 } }

        func run(arguments: [String], environment: [String: String], input: [UInt8], timeout: Duration) throws -> Int32 {
            recorded.withLock { $0.append(Call(arguments: arguments, environment: environment,
                                               input: String(decoding: input, as: UTF8.self), timeout: timeout)) }
            return try answer.get()
        }
    }

    static func harness(_ runner: FakeRunner, inherited: [String: String]) throws -> KioskHarness {
        try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "-"}"#),
                         makeAction: { _ in ExecTagAction(arguments: ["/opt/hook", "--x"], timeout: .seconds(3), runner: runner, inherited: inherited) })
    }

    @Test("a Zebra tag: argv as configured, tag and printer variables, inherited tag variables dropped, the JSON line on stdin")
    func zebraTagEnvironment() async throws {
        let runner = FakeRunner(.success(0))
        let kiosk = try Self.harness(runner, inherited: ["PATH": "/usr/bin", "NFCTAP_SERIAL": "stale", "NFCTAP_URI": "stale", "LANG": "C"])
        await kiosk.start()
        await kiosk.tap(KioskTags.zebra(uid: 1), expectTap: 1)
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 2), expectTap: 2)
        await kiosk.stop()
        try #require(runner.calls.count == 2)
        let zebra = runner.calls[0]
        #expect(zebra.arguments == ["/opt/hook", "--x"])
        #expect(zebra.timeout == .seconds(3))
        #expect(zebra.environment == [
            "PATH": "/usr/bin", "LANG": "C",
            "NFCTAP_UID": "04112233445501", "NFCTAP_TYPE": "type2", "NFCTAP_READER": "Kiosk Reader A",
            "NFCTAP_PRODUCT": "NTAG213",
            "NFCTAP_URI": "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0",
            "NFCTAP_SERIAL": "XXZFJ170700336", "NFCTAP_MODEL": "ZQ320-A0E02T0-00", "NFCTAP_BT_MAC": "CC:78:AB:3E:BA:E0",
            "NFCTAP_VERSION": "0",
        ])
        #expect(zebra.input.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(zebra.input.utf8)) as? [String: Any])
        #expect(object["uid"] as? String == "04112233445501")
        let plain = runner.calls[1]
        #expect(plain.environment["NFCTAP_SERIAL"] == nil)
        #expect(plain.environment["NFCTAP_URI"] == "https://example.com/a")
        #expect(kiosk.feedback == [.success, .success])
    }

    @Test("exit status not 0, timeout, program gone: red, with the reason logged")
    func failures() async throws {
        for (answer, logged) in [
            (Result<Int32, PairingError>.success(3), "result=\"program failed with exit status 3\" status=3"),
            (.failure(.commandTimedOut("/opt/hook", seconds: 3)), "result=\"--exec: /opt/hook did not finish within 3 s and was stopped\""),
            (.failure(.commandNotFound("/opt/hook")), "result=\"--exec: command not found: /opt/hook (give a path or check PATH)\""),
        ] {
            let runner = FakeRunner(answer)
            let kiosk = try Self.harness(runner, inherited: [:])
            await kiosk.start()
            await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
            await kiosk.stop()
            #expect(kiosk.feedback == [.failure])
            #expect(kiosk.recorder.lines.contains { $0.hasPrefix("<3>action result ok=false program=/opt/hook ") && $0.contains(logged) },
                    "\(kiosk.recorder.lines)")
        }
    }

    @Test("a read that did not complete runs nothing")
    func incompleteReadRunsNothing() async throws {
        let runner = FakeRunner(.success(0))
        let kiosk = try Self.harness(runner, inherited: [:])
        await kiosk.start()
        try #require(kiosk.backend.reader(named: KioskHarness.reader)).plan.reset(leaveFieldAfter: 1)
        await kiosk.tap(try KioskTags.uri("https://example.com/" + String(repeating: "y", count: 90), uid: 1), expectTap: 1)
        await kiosk.stop()
        #expect(runner.calls.isEmpty)
        #expect(kiosk.feedback == [.failure])
    }

    @Test("a real program: started without a shell, reads the tag on stdin, sees the variables; a slow one is stopped")
    func realProgram() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("on tap.sh").path
        try """
            #!/bin/sh
            cat > "$1/stdin-$NFCTAP_UID"
            printf '%s|%s' "$NFCTAP_READER" "$2" > "$1/env-$NFCTAP_UID"
            [ "$NFCTAP_UID" = 04112233445502 ] && exit 4
            [ "$NFCTAP_UID" = 04112233445503 ] && exec sleep 30
            exit 0
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let command = "'\(script)' '\(dir.path)' '$HOME;|`x`'"
        let kiosk = try KioskHarness(try kioskConfiguration(
            #"{"action": "exec", "command": "\#(command.replacingOccurrences(of: "\\", with: "\\\\"))", "timeoutSeconds": 0.3}"#))
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        await kiosk.tap(try KioskTags.uri("https://example.com/b", uid: 2), expectTap: 2)
        await kiosk.tap(try KioskTags.uri("https://example.com/c", uid: 3), expectTap: 3)
        await kiosk.stop()
        let stdin = try String(contentsOfFile: dir.appendingPathComponent("stdin-04112233445501").path, encoding: .utf8)
        #expect(stdin.hasPrefix("{\"schemaVersion\":1,\"records\":[{") && stdin.hasSuffix("}\n"))
        #expect(try String(contentsOfFile: dir.appendingPathComponent("env-04112233445501").path, encoding: .utf8)
                == "Kiosk Reader A|$HOME;|`x`")
        #expect(kiosk.feedback == [.success, .failure, .failure])
        #expect(kiosk.recorder.lines.contains { $0.contains("did not finish within 0.3 s and was stopped") })
    }

    @Test("exec: a background child the program leaves behind is ended with it; the tap stays green")
    func backgroundChildEnded() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("spawn.sh").path
        try """
            #!/bin/sh
            sleep 30 &
            echo $! > "$1/child"
            exit 0
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "exec", "command": "\#(script) \#(dir.path)"}"#))
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        await kiosk.stop()
        #expect(kiosk.feedback == [.success])
        let child = try #require(pid_t(try String(contentsOfFile: dir.appendingPathComponent("child").path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let stat = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)) ?? ""
        let state = stat.lastIndex(of: ")").map { stat[stat.index(after: $0)...].split(separator: " ").first.map(String.init) ?? "" } ?? "gone"
        #expect(state == "gone" || state == "Z", "the background sleep (pid \(child)) is still running: \(state)")
    }
}
