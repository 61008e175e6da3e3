import Foundation
import NDEF
import NFCTapKitTestSupport
import TagEmulation
import Testing

/// Ring 3: `nfctap kiosk` as a process against the real pcscd + vpcd (scripts/services/pcscd.sh):
/// it keeps serving across cards coming and going and pcscd killed and restarted, reloads its
/// configuration on SIGHUP, exits 0 on SIGTERM. An extension of `PCSCSystemTests` so it shares
/// that suite's serialization (one pcscd for all).
extension PCSCSystemTests {
    static func kioskConfig(output: String, readers: [String] = [TestPCSCD.reader0]) -> String {
        let list = readers.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"action": "json", "output": "\#(output)", "readers": [\#(list)], "backends": {"pcsc": true, "libnfc": []}, "logLevel": "debug"}"#
    }

    @Test("kiosk process: taps through pcscd, pcscd killed and restarted, SIGHUP to a new output file, SIGTERM exits 0")
    func kioskAcrossPcscdRestart() throws {
        defer { try? TestPCSCD.control("start") }
        try TestPCSCD.waitUntilReadersAreEmpty()
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("kiosk.json").path
        let first = dir.appendingPathComponent("first.jsonl").path
        let second = dir.appendingPathComponent("second.jsonl").path
        try Self.kioskConfig(output: first).write(toFile: config, atomically: true, encoding: .utf8)

        let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config])
        kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains(TestPCSCD.reader0) }

        let reader = EmulatedPCSCReader(profile: .generic, tag: VirtualType2Tag.zebraZQ320(uid: KioskTags.uid(1)))
        let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
        try card.insert()
        var lines = try waitForJSONLines(first, count: 1)
        card.remove()
        #expect(lines.first?["uid"] as? String == "04112233445501")
        #expect((lines.first?["zebra"] as? [String: Any])?["serial"] as? String == "XXZFJ170700336")

        // pcscd dies (as a crash) and comes back: the same kiosk process serves the next tap.
        try TestPCSCD.control("kill")
        kiosk.waitForLog("service lost") { $0.hasPrefix("<3>reader service lost backend=pcscd") }
        try TestPCSCD.control("start")
        kiosk.waitForLog("service restored") { $0.hasPrefix("<5>reader service restored backend=pcscd") }
        kiosk.waitForLog("reader added again", count: 2) { $0.hasPrefix("<6>reader added") && $0.contains(TestPCSCD.reader0) }
        reader.tag = VirtualType2Tag.zebraZQ320(uid: KioskTags.uid(2))
        try card.insert()
        lines = try waitForJSONLines(first, count: 2)
        card.remove()
        #expect(lines.last?["uid"] as? String == "04112233445502")

        // SIGHUP: the new output takes the next tap; a broken file is refused and the old kept.
        try Self.kioskConfig(output: second).write(toFile: config, atomically: true, encoding: .utf8)
        kiosk.signal(SIGHUP)
        kiosk.waitForLog("reloaded") { $0 == "<5>configuration reloaded action=json new_session=false" }
        try TestPCSCD.waitUntilReadersAreEmpty()
        reader.tag = try KioskTags.uri("https://example.com/after-reload", uid: 3)
        try card.insert()
        let moved = try waitForJSONLines(second, count: 1)
        card.remove()
        #expect(moved.first?["uid"] as? String == "04112233445503")
        try #"{"action": "json", "output": 3}"#.write(toFile: config, atomically: true, encoding: .utf8)
        kiosk.signal(SIGHUP)
        kiosk.waitForLog("reload refused") { $0.hasPrefix("<3>configuration reload failed; keeping the running configuration") }

        #expect(kiosk.terminate() == 0)
        #expect(try jsonLines(first).count == 2)
        #expect(try jsonLines(second).count == 1)
        let log = kiosk.lines
        #expect(log.contains("<5>stopped"))
        #expect(log.allSatisfy { $0.first == "<" && $0.dropFirst(2).first == ">" }, "every line has a priority prefix")
        #expect(log.filter { $0.hasPrefix("<6>session started") }.count == 1, "one session throughout: \(log)")
    }

    @Test("kiosk process started before pcscd: one session waits for it, serves once it is up")
    func kioskWaitsForPcscd() throws {
        defer { try? TestPCSCD.control("start") }
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("kiosk.json").path
        let out = dir.appendingPathComponent("taps.jsonl").path
        try Self.kioskConfig(output: out).write(toFile: config, atomically: true, encoding: .utf8)
        try TestPCSCD.control("stop")
        let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config])
        kiosk.waitForLog("service lost") { $0.hasPrefix("<3>reader service lost backend=pcscd reason=") }
        try TestPCSCD.control("start")
        kiosk.waitForLog("service restored") { $0 == "<5>reader service restored backend=pcscd" }
        kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains(TestPCSCD.reader0) }
        try TestPCSCD.waitUntilReadersAreEmpty()
        let reader = EmulatedPCSCReader(profile: .generic, tag: try KioskTags.text("late"))
        let card = VPCDCard(behaviour: reader, port: TestPCSCD.port0)
        try card.insert()
        let lines = try waitForJSONLines(out, count: 1)
        card.remove()
        #expect(lines.first?["type"] as? String == "type4")
        #expect(kiosk.terminate() == 0)
        let log = kiosk.lines
        #expect(log.filter { $0.hasPrefix("<6>session started") } == ["<6>session started attempt=1"])
        #expect(!log.contains { $0.hasPrefix("<4>session ended") })
    }
}

/// Ring 3: the kiosk process over libnfc and the project's PN532 emulator on a pty that closes
/// and reopens at a stable path.
@Suite("Kiosk process over libnfc (PN532 emulator)", .serialized,
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
struct KioskLibNFCSystemTests {
    @Test("PN532 pty closed and reopened: logged, the kiosk reads the next tap")
    func pn532Reopened() throws {
        let dir = try kioskDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("ttyPN532").path
        let out = dir.appendingPathComponent("taps.jsonl").path
        let config = dir.appendingPathComponent("kiosk.json").path
        try #"{"action": "json", "output": "\#(out)", "backends": {"pcsc": false, "libnfc": ["pn532_uart:\#(link)"]}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let emulator = PN532Emulator(tag: VirtualType2Tag.zebraZQ320(uid: KioskTags.uid(1)), linkPath: link)
        try emulator.start()
        defer { emulator.stop() }
        let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config])
        var lines = try waitForJSONLines(out, count: 1)
        #expect(lines.first?["uid"] as? String == "04112233445501")
        #expect(lines.first?["reader"] as? String == "libnfc:pn532_uart:\(link)")

        emulator.stop()
        kiosk.waitForLog("service lost") { $0.hasPrefix("<3>reader service lost backend=libnfc") }
        emulator.tag = try KioskTags.uri("https://example.com/reopened", uid: 2)
        try emulator.start()
        kiosk.waitForLog("service restored") { $0.hasPrefix("<5>reader service restored backend=libnfc") }
        lines = try waitForJSONLines(out, count: 2)
        #expect(lines.last?["uid"] as? String == "04112233445502")
        #expect(kiosk.terminate() == 0)
        #expect(kiosk.lines.filter { $0.hasPrefix("<6>session started") }.count == 1)
    }
}
