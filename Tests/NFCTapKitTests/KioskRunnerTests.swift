import CoreNFCLinux
import Foundation
import NDEF
@testable import NFCTapKit
import NFCTapKitTestSupport
import RecordOutput
import Synchronization
import TagEmulation
import Testing
import TestSupport

/// `nfctap kiosk`'s runner in-process over the virtual reader backend: actions, feedback,
/// sessions restarted, readers and the service coming and going, reload, stop.
@Suite("Kiosk runner (in-process, virtual readers)")
struct KioskRunnerTests {
    @Test("json: one line per tap, the scan object, green + beep after each")
    func jsonLinePerTap() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(out)"}"#))
        await kiosk.start()
        await kiosk.tap(KioskTags.zebra(uid: 1), expectTap: 1)
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 2), expectTap: 2)
        await kiosk.tap(try KioskTags.text("hello"), expectTap: 3)
        await kiosk.stop()

        let lines = try jsonLines(out)
        try #require(lines.count == 3)
        #expect(lines[0]["uid"] as? String == "04112233445501")
        #expect(lines[0]["product"] as? String == "NTAG213")
        #expect((lines[0]["zebra"] as? [String: Any])?["serial"] as? String == "XXZFJ170700336")
        #expect(lines[1]["uid"] as? String == "04112233445502")
        #expect(((lines[1]["records"] as? [[String: Any]])?.first?["uri"]) as? String == "https://example.com/a")
        #expect(lines[2]["type"] as? String == "type4")
        #expect(((lines[2]["records"] as? [[String: Any]])?.first?["text"]) as? String == "hello")
        for line in lines { #expect(line["reader"] as? String == KioskHarness.reader) }
        #expect(kiosk.feedback == [.success, .success, .success])
        let logged = kiosk.recorder.lines
        #expect(logged.contains("<6>tag read product=NTAG213 reader=\"Kiosk Reader A\" type=type2 uid=04112233445501"))
        #expect(logged.contains("<6>action result ok=true output=\(out) result=\"line written\" uid=04112233445502"))
        #expect(logged.contains("<6>session started attempt=1"))
        #expect(logged.last == "<5>stopped")
        #expect(kiosk.runner.sessionsStarted == 1)
    }

    @Test("json output that cannot be written (disk full mid-line): red, error logged, the line cut back, the next tap whole")
    func unwritableOutputIsRed() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("taps.jsonl").path
        let calls = FileCalls.failing(times: 2, afterWriting: 25)
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(path)"}"#),
                                     makeAction: { JSONLineAction(output: try KioskOutput.open($0.output, sync: true, calls: calls)) })
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        await kiosk.tap(try KioskTags.uri("https://example.com/b", uid: 2), expectTap: 2)
        await kiosk.tap(try KioskTags.uri("https://example.com/c", uid: 3), expectTap: 3)
        await kiosk.stop()
        #expect(kiosk.feedback == [.failure, .failure, .success])
        #expect(kiosk.recorder.taps.map(\.succeeded) == [false, false, true])
        let errors = kiosk.recorder.lines.filter { $0.hasPrefix("<3>action result ok=false") }
        #expect(errors.count == 2)
        #expect(errors.first?.contains("result=\"writing to \(path) failed: No space left on device\"") == true)
        // No partial line left for the good tap to be glued onto: every line parses.
        #expect(try jsonLines(path).map { $0["uid"] as? String } == ["04112233445503"])
    }

    @Test("a tag pulled away mid-read: its line carries the error, the reader shows red")
    func incompleteReadIsRed() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(out)"}"#))
        await kiosk.start()
        try #require(kiosk.backend.reader(named: KioskHarness.reader)).plan.reset(leaveFieldAfter: 1)
        await kiosk.tap(try KioskTags.uri("https://example.com/" + String(repeating: "x", count: 90), uid: 1), expectTap: 1)
        await kiosk.stop()
        let lines = try jsonLines(out)
        try #require(lines.count == 1)
        #expect(lines[0]["errorCode"] as? Int == 100)
        #expect(lines[0]["records"] == nil)
        #expect(kiosk.feedback == [.failure])
    }

    @Test("--quiet and \"feedback\": false: taps handled, no LED or buzzer")
    func noFeedback() async throws {
        let quiet = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "-"}"#), quiet: true)
        await quiet.start()
        await quiet.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        await quiet.stop()
        #expect(quiet.feedback.isEmpty)
        #expect(quiet.recorder.taps.map(\.succeeded) == [true])

        let off = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "-", "feedback": false}"#))
        await off.start()
        await off.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        await off.stop()
        #expect(off.feedback.isEmpty)
    }

    @Test("pair with json: a Zebra tag gives its identity line and green; another tag gives red and no line")
    func pairZebraOnly() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("printers.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "pair", "pairWith": "json", "output": "\#(out)"}"#))
        await kiosk.start()
        await kiosk.tap(KioskTags.zebra(uid: 1), expectTap: 1)
        await kiosk.tap(try KioskTags.uri("https://www.zebra.com.evil.example/apps/r/nfc?mB=cc78ab3ebae0&s=X", uid: 2), expectTap: 2)
        await kiosk.tap(try KioskTags.text("not a printer"), expectTap: 3)
        await kiosk.stop()
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text == #"{"bluetooth":"CC:78:AB:3E:BA:E0","bluetoothLE":null,"ethernet":null,"model":"ZQ320-A0E02T0-00","other":[],"serial":"XXZFJ170700336","version":"0","wifi":null}"# + "\n")
        #expect(kiosk.feedback == [.success, .failure, .failure])
        let results = kiosk.recorder.lines.filter { $0.contains("action result") }
        try #require(results.count == 3, "\(kiosk.recorder.lines)")
        #expect(results[0] == "<6>action result ok=true result=\"identity written\" serial=XXZFJ170700336 uid=04112233445501")
        #expect(results[1] == "<3>action result ok=false result=\"not a Zebra printer tag\" uid=04112233445502")
    }

    @Test("duplicate window: the same tag again within the window is not handled again, later it is")
    func duplicateWindow() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(
            #"{"action": "json", "output": "\#(out)", "duplicateWindowSeconds": 5}"#))
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        kiosk.clock.advance(.seconds(4))
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 2)
        await kiosk.tap(try KioskTags.uri("https://example.com/b", uid: 2), expectTap: 3)
        kiosk.clock.advance(.seconds(1))
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 4)
        await kiosk.stop()
        #expect(kiosk.recorder.taps.map(\.duplicate) == [false, true, false, false])
        #expect(try jsonLines(out).map { $0["uid"] as? String } == ["04112233445501", "04112233445502", "04112233445501"])
        #expect(kiosk.feedback == [.success, .success, .success, .success])
        #expect(kiosk.recorder.lines.contains("<6>duplicate tap ignored uid=04112233445501 window=5s"))
    }

    @Test("no reader service at the start: sessions restarted with a capped, doubling backoff until it is back")
    func serviceDownAtStartBacksOff() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let box = Locked<[VirtualReaderBackend]>([])
        let seen = Locked<[Duration]>([])
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(out)"}"#),
                                     onSleep: { delay in
                                         seen.withLock { $0.append(delay) }
                                         if seen.current.count == 7 { box.current.first?.restoreService() }
                                     })
        box.withLock { $0.append(kiosk.backend) }
        kiosk.backend.loseService()
        await kiosk.start()
        await kiosk.recorder.waitForReader(KioskHarness.reader, added: true)
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        await kiosk.stop()
        #expect(kiosk.delays.current == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        let ended = kiosk.recorder.events.compactMap { if case let .sessionEnded(code, _, _) = $0 { code } else { nil } }
        #expect(ended == Array(repeating: 1, count: 7))
        #expect(kiosk.runner.sessionsStarted == 8)
        #expect(try jsonLines(out).count == 1)
        #expect(kiosk.recorder.lines.contains { $0.hasPrefix("<4>session ended code=1 reason=") && $0.hasSuffix(" retry_in=0.5s") })
    }

    @Test("the service lost and restored mid-session: the same session goes on, both logged")
    func serviceLostMidSession() async throws {
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "-"}"#))
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        kiosk.backend.loseService()
        await kiosk.recorder.waitForReader(KioskHarness.reader, added: false)
        kiosk.backend.restoreService()
        await kiosk.recorder.waitForReader(KioskHarness.reader, added: true, count: 2)
        await kiosk.tap(try KioskTags.uri("https://example.com/b", uid: 2), expectTap: 2)
        await kiosk.stop()
        #expect(kiosk.runner.sessionsStarted == 1)
        #expect(kiosk.recorder.taps.map(\.succeeded) == [true, true])
        let logged = kiosk.recorder.lines
        #expect(logged.contains("<3>reader service lost backend=virtual reason=\"the virtual reader service stopped\""))
        #expect(logged.contains("<5>reader service restored backend=virtual"))
        #expect(logged.contains("<4>reader removed backend=virtual reader=\"Kiosk Reader A\""))
    }

    @Test("readers unplugged and plugged in: logged, taps on the new reader handled, one session throughout")
    func readersComeAndGo() async throws {
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "-"}"#))
        await kiosk.start()
        kiosk.backend.removeReader(KioskHarness.reader)
        await kiosk.recorder.waitForReader(KioskHarness.reader, added: false)
        kiosk.backend.addReader("Kiosk Reader B")
        await kiosk.recorder.waitForReader("Kiosk Reader B", added: true)
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), on: "Kiosk Reader B", expectTap: 1)
        await kiosk.stop()
        #expect(kiosk.runner.sessionsStarted == 1)
        #expect(kiosk.recorder.lines.contains("<6>reader added backend=virtual reader=\"Kiosk Reader B\""))
        #expect(kiosk.backend.feedbackLog.map(\.reader) == ["Kiosk Reader B"])
    }

    @Test("reader filter: taps on other readers are not handled")
    func readerFilter() async throws {
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "-", "readers": ["desk"]}"#),
                                     readers: ["Front Desk 00", "Back Office 00"])
        await kiosk.start(waitForReaders: ["Front Desk 00"])
        kiosk.backend.place(try KioskTags.uri("https://example.com/ignored", uid: 9), on: "Back Office 00")
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), on: "Front Desk 00", expectTap: 1)
        await kiosk.stop()
        #expect(kiosk.recorder.taps.map(\.uid) == ["04112233445501"])
        #expect(!kiosk.recorder.events.contains { if case .readerAdded("Back Office 00") = $0 { true } else { false } })
    }

    @Test("SIGTERM with a tag in hand: the action finishes, its feedback is given, then the kiosk stops")
    func stopFinishesTagInHand() async throws {
        let gate = ActionGate()
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "-"}"#),
                                     makeAction: { _ in gate })
        await kiosk.start()
        kiosk.backend.place(try KioskTags.uri("https://example.com/a", uid: 1), on: KioskHarness.reader)
        // "tag read" is logged just before the action runs (and blocks).
        await kiosk.recorder.until("tag read") { _, lines in lines.contains { $0.hasPrefix("<6>tag read ") } }
        let stopping = Task { await kiosk.stop() }
        // The stop is requested while the action is blocked; only then is the action released.
        await kiosk.recorder.waitForLine("<5>stopping signal=15")
        gate.release()
        await stopping.value
        #expect(gate.handled == 1)
        let order = kiosk.recorder.events.compactMap { event -> String? in
            switch event {
            case .tap: return "tap"
            case .stopped: return "stopped"
            default: return nil
            }
        }
        #expect(order == ["tap", "stopped"])
        #expect(gate.closed)
        #expect(kiosk.feedback == [.success])
        #expect(kiosk.recorder.lines.suffix(3) == ["<5>stopping signal=15", "<6>action result ok=true result=done uid=04112233445501", "<5>stopped"])
    }

    @Test("SIGHUP: a new output file takes the next taps; an invalid file is refused and the old one kept")
    func reload() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.jsonl").path
        let second = dir.appendingPathComponent("second.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(first)"}"#))
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        #expect(kiosk.runner.reload { try kioskConfiguration(#"{"action": "json", "output": "\#(second)"}"#) })
        await kiosk.tap(try KioskTags.uri("https://example.com/b", uid: 2), expectTap: 2)
        #expect(!kiosk.runner.reload { try kioskConfiguration(#"{"action": "jsonn"}"#) })
        await kiosk.tap(try KioskTags.uri("https://example.com/c", uid: 3), expectTap: 3)
        // Readers changed: a new session; taps after it still go to the second file.
        #expect(kiosk.runner.reload { try kioskConfiguration(#"{"action": "json", "output": "\#(second)", "readers": ["Kiosk"]}"#) })
        await kiosk.recorder.wait(for: "sessionRestarted") { if case .sessionRestarted = $0 { true } else { false } }
        await kiosk.recorder.waitForReader(KioskHarness.reader, added: true, count: 2)
        await kiosk.tap(try KioskTags.uri("https://example.com/d", uid: 4), expectTap: 4)
        await kiosk.stop()
        #expect(try jsonLines(first).map { $0["uid"] as? String } == ["04112233445501"])
        #expect(try jsonLines(second).map { $0["uid"] as? String } == ["04112233445502", "04112233445503", "04112233445504"])
        #expect(kiosk.runner.sessionsStarted == 2)
        let logged = kiosk.recorder.lines
        #expect(logged.contains("<5>configuration reloaded action=json new_session=false"))
        #expect(logged.contains(#"<3>configuration reload failed; keeping the running configuration error="test.json: \"action\": unknown action \"jsonn\" (one of: json, exec, pair)""#))
        #expect(logged.contains("<6>session restarted reason=\"configuration reloaded\""))
        #expect(kiosk.delays.current.isEmpty)
    }

    @Test("a reload whose output cannot be opened is refused")
    func reloadUnopenableOutput() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("taps.jsonl").path
        let kiosk = try KioskHarness(try kioskConfiguration(#"{"action": "json", "output": "\#(path)"}"#))
        await kiosk.start()
        #expect(!kiosk.runner.reload { try kioskConfiguration(#"{"action": "json", "output": "/nonexistent-dir/x.jsonl"}"#) })
        #expect(!kiosk.runner.reload { try kioskConfiguration(#"{"action": "json", "output": "/dev/null"}"#) })
        await kiosk.stop()
        #expect(kiosk.recorder.lines.contains(#"<3>configuration reload failed; keeping the running configuration error="cannot write /nonexistent-dir/x.jsonl: the directory /nonexistent-dir does not exist (create it first, or choose another output)""#))
        #expect(kiosk.recorder.lines.contains(#"<3>configuration reload failed; keeping the running configuration error="/dev/null is a character device, not a regular file: records written there could be lost (use \"-\" for stdout)""#))
        #expect(kiosk.runner.configuration.output == .file(path))
    }

    @Test("reload (SIGHUP) naming the same file after logrotate moved it: the next line goes to a new file")
    func reloadReopensRotatedOutput() async throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("taps.jsonl").path
        let rotated = dir.appendingPathComponent("taps.jsonl.1").path
        let config = #"{"action": "json", "output": "\#(path)"}"#
        let kiosk = try KioskHarness(try kioskConfiguration(config))
        await kiosk.start()
        await kiosk.tap(try KioskTags.uri("https://example.com/a", uid: 1), expectTap: 1)
        #expect(rename(path, rotated) == 0)
        #expect(kiosk.runner.reload { try kioskConfiguration(config) })
        #expect(FileManager.default.fileExists(atPath: path))
        await kiosk.tap(try KioskTags.uri("https://example.com/b", uid: 2), expectTap: 2)
        await kiosk.stop()
        #expect(try jsonLines(rotated).map { $0["uid"] as? String } == ["04112233445501"])
        #expect(try jsonLines(path).map { $0["uid"] as? String } == ["04112233445502"])
        #expect(kiosk.feedback == [.success, .success])
    }

    @Test("backoff: 0.5 s doubling to 10 s, then 10 s; reset starts over")
    func backoffSequence() {
        var backoff = KioskBackoff()
        let seq = (0..<8).map { _ in backoff.next() }
        #expect(seq == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10)])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(500))
    }
}

/// An action that blocks in `handle` until released (a tag in hand when SIGTERM comes).
final class ActionGate: KioskAction, Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let state = Mutex((handled: 0, closed: false))

    func handle(_ report: NFCTagReport) -> KioskActionResult {
        gate.wait()
        state.withLock { $0.handled += 1 }
        return .success("done")
    }

    func close() { state.withLock { $0.closed = true } }
    func release() { gate.signal() }
    var handled: Int { state.withLock { $0.handled } }
    var closed: Bool { state.withLock { $0.closed } }
}
