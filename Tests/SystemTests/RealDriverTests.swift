import Foundation
import NDEF
import NFCTags
import NFCTapKitTestSupport
import TagEmulation
import Testing

/// Ring 4: every user path through the real drivers (pcscd 1.9.9 + libccid over USB, libnfc's
/// pn53x_usb and acr122_usb), readers emulated at the USB boundary (RealDriverSupport.swift).
/// One suite, serialized: the tests share the emulated bus and its pcscd.
@Suite("Real drivers: pcscd + libccid and libnfc over emulated USB", .serialized,
       .enabled(if: SystemEnvironment.available("usbreaders")))
struct RealDriverTests {
    static let uri = ScanVectors.uri
    static let message = ScanVectors.uriMessage

    static func ntag213(_ n: UInt8) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(n), ndef: message)
    }

    /// The NDEF message TLV's value in a Type 2 memory image (from page 4), nil when absent.
    static func ndefTLV(_ memory: [UInt8]) -> [UInt8]? {
        var i = 16
        while i + 1 < memory.count {
            switch memory[i] {
            case 0x00: i += 1
            case 0xFE: return nil
            case 0x03:
                let length = Int(memory[i + 1])
                guard i + 2 + length <= memory.count else { return nil }
                return Array(memory[(i + 2)..<(i + 2 + length)])
            default: i += 2 + Int(memory[i + 1])
            }
        }
        return nil
    }

    /// `nfctap kiosk` (JSON lines, feedback on) for one reader through the ring's pcscd; its output file.
    static func kiosk(on profile: USBProfile, in dir: URL) throws -> (KioskProcess, String) {
        let output = dir.appendingPathComponent("taps.jsonl").path
        let config = dir.appendingPathComponent("kiosk.json").path
        try #"{"action": "json", "output": "\#(output)", "readers": ["\#(profile.match)"], "backends": {"pcsc": true, "libnfc": []}, "feedback": true}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        return (try KioskProcess(arguments: ["kiosk", "--config", config], environment: USBRing.pcsc), output)
    }

    init() throws {
        try USBRing.control(["pcscd-start"])
        try USBRing.waitForReaders(USBRing.allReaderCount)
    }

    // MARK: - readers, scan, write, apdu through pcscd + libccid

    @Test("readers: libccid names every emulated CCID reader (both ACR1252U interfaces)")
    func readers() throws {
        let r = try runCLI(["readers", "--json"], environment: USBRing.pcsc)
        #expect(r.status == 0, "\(r.stderr)")
        let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        let names = list.compactMap { $0["name"] as? String }
        #expect(Set(names) == Set(USBProfile.ccid.map(\.readerName) + ["ACS ACR1252 Dual Reader [ACR1252 Dual Reader SAM] 02 00"]))
        #expect(list.allSatisfy { $0["backend"] as? String == "pcsc" })
        // LED/buzzer: the ACS readers have it, the OMNIKEY and the uTrust do not.
        let feedback = Dictionary(uniqueKeysWithValues: list.compactMap { e in (e["name"] as? String).map { ($0, e["feedback"] as? Bool) } })
        #expect(feedback[USBProfile.acr122u.readerName] == true)
        #expect(feedback[USBProfile.omnikey.readerName] == false)
    }

    /// Exact exchanges of one `scan --json` per profile and tag: CCID XfrBlocks on the USB, APDUs
    /// the card got. The ACR122U asks its firmware string (answered by the reader), reads through
    /// the PN532 (GET_VERSION, FAST_READ), switches its own beep off and back on, and blinks.
    static let scanCounts: [String: (xfr: Int, card: Int)] = [
        "acr122u T2": (7, 5), "acr122u T4": (10, 8),
        "acr1252u T2": (8, 8), "acr1252u T4": (7, 7),
        "omnikey5022 T2": (7, 7), "omnikey5022 T4": (6, 6),
        "utrust3700f T2": (7, 7), "utrust3700f T4": (6, 6),
    ]

    @Test("scan --json through libccid: Type 2 and Type 4, exact exchanges per profile", arguments: USBProfile.ccid)
    func scan(_ profile: USBProfile) throws {
        for kind in ["T2", "T4"] {
            let tag: VirtualTag = kind == "T2" ? try Self.ntag213(0x41) : VirtualType4Tag(version: .v2, ndef: Self.message)
            try USBRing.resetCounts(profile.key)
            let card = try profile.tap(tag)
            let r = try runCLI(["scan", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
            card.remove()
            #expect(r.status == 0, "\(profile) \(kind): \(r.stderr)")
            let read = try ScanJSON.decode(r.stdout)
            #expect(read.records?.map(\.uri) == [Self.uri], "\(profile) \(kind)")
            #expect(read.reader == profile.readerName)
            let counts = try USBRing.counts(profile.key)
            let expected = Self.scanCounts["\(profile.key) \(kind)"]
            #expect(counts["XfrBlock"] == expected?.xfr && card.log.count == expected?.card,
                    "\(profile) \(kind): \(counts["XfrBlock"] ?? 0) XfrBlocks, card got \(card.log.map { $0.hexString(separator: " ") })")
            // In and out: the card's arrival and departure came from the interrupt endpoint.
            #expect(counts["NotifySlotChange"] == 2, "\(profile) \(kind): \(counts)")
        }
    }

    @Test("write --lock through libccid: the tag holds the message and is locked", arguments: [USBProfile.acr122u, USBProfile.utrust])
    func writeAndLock(_ profile: USBProfile) throws {
        let tag = VirtualType2Tag.blankNTAG213(uid: ScanVectors.uid(0x42))
        let card = try profile.tap(tag)
        defer { card.remove() }
        let r = try runCLI(["write", "--uri", Self.uri, "--lock", "--json", "--timeout", "20", "--reader", profile.match],
                           environment: USBRing.pcsc)
        #expect(r.status == 0, "\(profile): \(r.stderr)")
        let report = try JSONDecoder().decode(WriteJSON.self, from: Data(r.stdout.utf8))
        #expect(report.locked && report.written == Self.message.count)
        #expect(Self.ndefTLV(tag.memory) == Self.message)
        // Static lock bytes (page 2, bytes 2-3) set, capability container read-only (page 3 byte 3 0F).
        #expect(tag.memory[10] == 0xFF && tag.memory[11] == 0xFF && tag.memory[15] == 0x0F, "\(tag.memory.prefix(16).hexString)")
    }

    @Test("apdu through libccid: SELECT on a Type 4 tag in the uTrust 3700 F")
    func apdu() throws {
        let card = try USBProfile.utrust.tap(VirtualType4Tag(version: .v2, ndef: Self.message))
        defer { card.remove() }
        let r = try runCLI(["apdu", "--timeout", "20", "--reader", USBProfile.utrust.match, "00A4040007D276000085010100"],
                           environment: USBRing.pcsc)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("90 00") || r.stdout.contains("9000"), "\(r.stdout)")
        #expect(card.log.contains([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]))
    }

    // MARK: - card events, unplug

    @Test("tap and remove arrive on the interrupt endpoint: scan --multi sees two taps")
    func tapAndRemove() throws {
        let profile = USBProfile.omnikey
        try USBRing.resetCounts(profile.key)
        let multi = try CLIProcess(["scan", "--multi", "--json", "--timeout", "0", "--reader", profile.match], environment: USBRing.pcsc)
        multi.waitForStderr("Hold a tag near")
        let first = try profile.tap(try Self.ntag213(0x43))
        _ = multi.waitForLines(1)
        first.remove()
        let second = try profile.tap(try Self.ntag213(0x44))
        let lines = multi.waitForLines(2)
        second.remove()
        multi.interrupt()
        #expect(multi.finish().status == 0)
        #expect(try lines.map { try ScanJSON.decode($0).uid } == ["04102030405043", "04102030405044"])
        // In, out, in, out: four NotifySlotChange messages, no polling.
        #expect(try USBRing.counts(profile.key)["NotifySlotChange"] == 4)
    }

    @Test("unplug and replug mid-session: scan --multi ends with a typed error; the kiosk carries on after replug")
    func unplugReplug() throws {
        let profile = USBProfile.acr1252u
        defer { _ = try? USBRing.emulator("replug", profile.key); try? USBRing.waitForReaders(USBRing.allReaderCount) }
        let multi = try CLIProcess(["scan", "--multi", "--json", "--timeout", "0", "--reader", profile.match], environment: USBRing.pcsc)
        multi.waitForStderr("Hold a tag near")
        try USBRing.emulator("unplug", profile.key)
        let gone = multi.finish()
        #expect(gone.status == 3, "\(gone.stderr)")
        #expect(gone.stderr.contains("nfctap: error: the reader went away"), "\(gone.stderr)")
        try USBRing.emulator("replug", profile.key)
        try USBRing.waitForReaders(USBRing.allReaderCount)

        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (kiosk, output) = try Self.kiosk(on: profile, in: dir)
        kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains("ACR1252 Dual Reader PICC") }
        try USBRing.emulator("unplug", profile.key)
        kiosk.waitForLog("reader removed") { $0.contains("reader removed") && $0.contains("ACR1252 Dual Reader PICC") }
        try USBRing.emulator("replug", profile.key)
        kiosk.waitForLog("reader added again", count: 2) { $0.hasPrefix("<6>reader added") && $0.contains("ACR1252 Dual Reader PICC") }
        let card = try profile.tap(try Self.ntag213(0x45))
        let lines = try waitForJSONLines(output, count: 1)
        card.remove()
        #expect(kiosk.terminate() == 0)
        #expect(lines.first?["uid"] as? String == "04102030405045")
    }

    /// VmRSS (KiB), open descriptors and threads of a running process.
    static func resources(_ pid: Int32) -> (rssKiB: Int, fds: Int, threads: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first }.flatMap { Int($0) } ?? -1
        let count = { (dir: String) in (try? FileManager.default.contentsOfDirectory(atPath: dir).count) ?? -1 }
        return (rss, count("/proc/\(pid)/fd"), count("/proc/\(pid)/task"))
    }

    /// The kiosk on the ACR1252U and `inventory` on the uTrust through the same pcscd, while both
    /// readers are unplugged and replugged `count` times in `seconds` (docs/faults.md "Reader
    /// faults"): every tap afterwards is recorded by each, their descriptors, threads and memory
    /// stay flat, and each ends within 2 s of SIGTERM.
    @Test("replug storms under the kiosk and inventory: every later tap recorded, resources flat, SIGTERM within 2 s",
          arguments: [(20, 10.0), (100, 30.0)])
    func replugStorm(count: Int, seconds: Double) throws {
        let (kioskReader, inventoryReader) = (USBProfile.acr1252u, USBProfile.utrust)
        defer {
            for profile in [kioskReader, inventoryReader] { _ = try? USBRing.emulator("replug", profile.key) }
            try? USBRing.waitForReaders(USBRing.allReaderCount)
        }
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (kiosk, kioskOutput) = try Self.kiosk(on: kioskReader, in: dir)
        let inventoryOutput = dir.appendingPathComponent("inventory.jsonl").path
        let inventory = try KioskProcess(arguments: ["inventory", "--output", inventoryOutput, "--reader", inventoryReader.match],
                                         environment: USBRing.pcsc)
        var serial: UInt8 = 0x70
        /// One tap on each reader; waits for both records.
        func tapBoth(expecting n: Int) throws {
            let a = try kioskReader.tap(try Self.ntag213(serial))
            let b = try inventoryReader.tap(try Self.ntag213(serial + 1))
            try waitForJSONLines(kioskOutput, count: n)
            try waitForJSONLines(inventoryOutput, count: n)
            a.remove()
            b.remove()
            serial += 2
        }
        kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains("ACR1252 Dual Reader PICC") }
        try tapBoth(expecting: 1)  // warm: the first tap's allocations are not the storm's
        let before = [kiosk, inventory].map { Self.resources($0.process.processIdentifier) }

        let period = seconds / Double(count)
        let start = Date()
        do {
            for i in 0..<count {
                for profile in [kioskReader, inventoryReader] { try USBRing.emulator("unplug", profile.key) }
                Thread.sleep(until: start.addingTimeInterval(period * (Double(i) + 0.5)))
                for profile in [kioskReader, inventoryReader] { try USBRing.emulator("replug", profile.key) }
                Thread.sleep(until: start.addingTimeInterval(period * Double(i + 1)))
            }
            try USBRing.waitForReaders(USBRing.allReaderCount)
        } catch {
            let log = (try? String(contentsOfFile: USBRing.directory + "/emulator.log", encoding: .utf8)) ?? ""
            Issue.record("\(error); the emulator's log ends:\n\(log.split(separator: "\n").suffix(30).joined(separator: "\n"))")
            throw error
        }
        for n in 2...6 { try tapBoth(expecting: n) }
        let after = [kiosk, inventory].map { Self.resources($0.process.processIdentifier) }

        for (name, process) in [("kiosk", kiosk), ("inventory", inventory)] {
            let asked = Date()
            let status = process.terminate()
            #expect(Date().timeIntervalSince(asked) < 2, "\(name) took \(Date().timeIntervalSince(asked)) s after SIGTERM")
            #expect(status == 0, "\(name) exit \(status)")
        }
        for (i, name) in ["kiosk", "inventory"].enumerated() {
            #expect(after[i].fds <= before[i].fds + 1, "\(name) descriptors \(before[i].fds) → \(after[i].fds)")
            #expect(after[i].threads <= before[i].threads + 2, "\(name) threads \(before[i].threads) → \(after[i].threads)")
            #expect(after[i].rssKiB <= before[i].rssKiB + 3 * 1024, "\(name) VmRSS \(before[i].rssKiB) → \(after[i].rssKiB) KiB")
        }
        let uids = { (path: String) in try jsonLines(path).compactMap { $0["uid"] as? String } }
        #expect(try uids(kioskOutput) == stride(from: 0x70, to: 0x7C, by: 2).map { ScanVectors.uid(UInt8($0)).hexString })
        #expect(try uids(inventoryOutput) == stride(from: 0x71, to: 0x7D, by: 2).map { ScanVectors.uid(UInt8($0)).hexString })
    }

    @Test("reader unplugged mid-write: a typed error, and the tag never holds half a message")
    func unplugMidWrite() throws {
        let profile = USBProfile.acr122u
        defer { _ = try? USBRing.emulator("replug", profile.key); try? USBRing.waitForReaders(USBRing.allReaderCount) }
        let old = try Self.ntag213(0x46)
        let card = try profile.tap(old)
        defer { card.remove() }
        // The reader goes mid-message, at the page 10 write (the first write empties the length).
        try USBRing.emulator("yank", profile.key, "FFD6000A04")
        let long = "https://nfctap.dev/" + String(repeating: "x", count: 60)
        let r = try runCLI(["write", "--uri", long, "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(r.status != 0)
        #expect(r.stderr.contains("nfctap: error:"), "\(r.stderr)")
        let tlv = Self.ndefTLV(old.memory)
        // The old message, or an empty one (length 0 written first), never part of the new one.
        #expect(tlv == Self.message || tlv == [], "\(old.memory.hexString)")
        #expect(try USBRing.counts(profile.key)["yanked"] == 1)
    }

    // MARK: - kiosk, inventory, pair, examples

    @Test("kiosk with feedback on the ACR122U: one line per tap, the LED/buzzer pseudo-APDU through SCardTransmit")
    func kioskFeedback() throws {
        let profile = USBProfile.acr122u
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try USBRing.resetCounts(profile.key)
        let (kiosk, output) = try Self.kiosk(on: profile, in: dir)
        kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains("ACR122U") }
        let card = try profile.tap(try Self.ntag213(0x47))
        let lines = try waitForJSONLines(output, count: 1)
        // The line is written before the feedback (docs/kiosk.md): wait for the LED command.
        var led: Int?
        for _ in 0..<100 where led == nil {
            led = try USBRing.counts(profile.key)["led"]
            if led == nil { usleep(50_000) }
        }
        card.remove()
        #expect(lines.first?["uid"] as? String == "04102030405047")
        #expect(kiosk.terminate() == 0)
        #expect(try USBRing.counts(profile.key)["led"] == 1)
    }

    // MARK: - the other tag families through libccid

    @Test("ISO 15693 through libccid: an ICODE SLIX2 on the OMNIKEY 5022 is scanned, written, read back and locked through FF C2")
    func type5OnTheOMNIKEY() throws {
        let profile = USBProfile.omnikey
        let virtual = VirtualISO15693Tag.formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2, serial: 0x51),
                                                   message: Self.message)
        let card = try profile.tap(virtual)
        defer { card.remove() }
        let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(scan.status == 0, "\(scan.stderr)")
        let report = try ScanJSON.decode(scan.stdout)
        #expect(report.type == "type5" && report.uid == virtual.uid.hexString && report.product == "ICODE SLIX2", "\(scan.stdout)")
        #expect(report.records?.map(\.uri) == [Self.uri])
        // readers --json: the chip, memory and IC reference from one Get System Info through libccid.
        let readers = try runCLI(["readers", "--json", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(readers.stdout.contains(#""iso15693":{"manufacturerCode":4,"manufacturer":"NXP Semiconductors","product":"ICODE SLIX2","blockSize":4,"blockCount":80,"icReference":1,"dsfid":0,"afi":0}"#),
                "\(readers.stdout) \(readers.stderr)")
        let other = try NDEFMessage(records: [.uri("https://example.com/usb-type5")]).encoded()
        let write = try runCLI(["write", "--uri", "https://example.com/usb-type5", "--lock", "--timeout", "20", "--reader", profile.match],
                               environment: USBRing.pcsc)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try Type5Tag(link: VirtualISO15693Link(virtual)).readNDEF() == other)
        #expect(virtual.lockedBlocks.count == 80, "every block locked (Lock Block passed by the transparent exchange)")
        // Every frame went through the reader's PC/SC Part 3 transparent exchange.
        #expect(card.reader.plan.log.contains { $0.starts(with: [0xFF, 0xC2, 0x00, 0x01]) })
    }

    @Test("MIFARE Classic through libccid: scan with each reader's own Load Keys (P1 00; OMNIKEY 20), exact commands; write, dump",
          arguments: [(USBProfile.acr122u, MifareClassicLayout.classic1K, UInt8(0x00)), (USBProfile.omnikey, .classic4K, UInt8(0x20)),
                      (USBProfile.acr1252u, .classic1K, UInt8(0x00)), (USBProfile.utrust, .classic4K, UInt8(0x00))])
    func classic(_ profile: USBProfile, _ layout: MifareClassicLayout, _ keyStructure: UInt8) throws {
        let virtual = VirtualMifareClassic.ndefFormatted(layout, message: try NDEFMessage(records: [.uri("https://example.com/classic")]).encoded())
        let card = try profile.tap(virtual)
        defer { card.remove() }
        let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(scan.status == 0, "\(scan.stderr)")
        let report = try ScanJSON.decode(scan.stdout)
        #expect(report.type == "mifareClassic" && report.product == layout.productName && report.records?.map(\.uri) == ["https://example.com/classic"],
                "\(scan.stdout)")
        // The MAD's key into slot 0, sector 0 and its blocks 1–3; the NFC Forum key, sector 1 to
        // the TLV's end (block 5), its trailer for the status. Keys are loaded once per change.
        let p1 = [keyStructure].hexString
        let classic = card.log.filter { $0.count > 3 && $0[0] == 0xFF && [0x82, 0x86, 0xB0].contains($0[1]) }
        // A 4K's GPB names MAD2 too: sector 16, blocks 64–66, with the key already loaded.
        let mad2 = layout == .classic4K ? ["FF860000", "FFB00040", "FFB00041", "FFB00042"] : []
        #expect(classic.map { $0.prefix(4).hexString } == ["FF82\(p1)00", "FF860000", "FFB00001", "FFB00002", "FFB00003"] + mad2
                + ["FF82\(p1)00", "FF860000", "FFB00004", "FFB00005", "FFB00007"],
                "\(classic.map { $0.hexString(separator: " ") })")
        let uri = "https://example.com/" + String(repeating: "c", count: 50)
        let write = try runCLI(["write", "--uri", uri, "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try MifareClassicTag(link: VirtualMifareClassicLink(virtual), layout: layout).readNDEF()
                == (try NDEFMessage(records: [.uri(uri)]).encoded()))
        let dump = try runCLI(["dump", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(dump.status == 0, "\(dump.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any], "\(dump.stdout)")
        #expect(object["blocks"] as? [String] == virtual.blocks.map(\.hexString))
    }

    @Test("a blank Classic 1K through libccid: write --format makes it NDEF-ready, --lock makes it read-only",
          arguments: [USBProfile.acr122u, USBProfile.omnikey])
    func classicFormatAndLock(_ profile: USBProfile) throws {
        let virtual = VirtualMifareClassic.blank(.classic1K)
        let card = try profile.tap(virtual)
        defer { card.remove() }
        let write = try runCLI(["write", "--format", "--lock", "--uri", "https://example.com/formatted", "--timeout", "20",
                                "--reader", profile.match], environment: USBRing.pcsc)
        #expect(write.status == 0, "\(write.stderr)")
        let scan = try ScanJSON.decode(try runCLI(["scan", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc).stdout)
        #expect(scan.records?.map(\.uri) == ["https://example.com/formatted"] && scan.writable == false)
        #expect(Array(virtual.block(7)[6 ... 9]) == [0x07, 0x8F, 0x0F, 0x43])
    }

    @Test("FeliCa through libccid: a Lite-S on the ACR122U is scanned and written through direct transmit (InCommunicateThru)")
    func feliCaOnTheACR122U() throws {
        let profile = USBProfile.acr122u
        let liteS = VirtualFeliCaCard.liteS(ndef: Self.message)
        let card = try profile.tap(liteS)
        defer { card.remove() }
        let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(scan.status == 0, "\(scan.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any], "\(scan.stdout)")
        #expect(object["type"] as? String == "felica" && object["uid"] as? String == liteS.idm.hexString, "\(scan.stdout)")
        #expect(scan.stdout.contains(Self.uri))
        let write = try runCLI(["write", "--uri", "https://example.com/usb-felica", "--timeout", "20", "--reader", profile.match],
                               environment: USBRing.pcsc)
        #expect(write.status == 0, "\(write.stderr)")
        let again = try runCLI(["scan", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(again.stdout.contains("https://example.com/usb-felica"), "\(again.stdout) \(again.stderr)")
        // FeliCa frames went to the PN532 inside: direct transmit of InCommunicateThru (D4 42).
        #expect(card.reader.plan.log.contains { $0.starts(with: [0xFF, 0x00, 0x00, 0x00]) && $0.count > 6 && $0[5] == 0xD4 && $0[6] == 0x42 })
    }

    // MARK: - the desktop agent through pcscd + libccid

    @Test("agent through libccid: a tap on the ACR122U becomes one notification naming the URL and the reader",
          .enabled(if: SystemEnvironment.available("dbus")))
    func agentNotifies() throws {
        let profile = USBProfile.acr122u
        let desk = try AgentDesk()
        let server = try NotificationServerMock()
        var environment = desk.environment(busAddress: server.address)
        environment.merge(USBRing.pcsc) { $1 }
        let agent = try CLIProcess(["agent", "--reader", profile.match], environment: environment)
        agent.waitForEvents("reading")
        let card = try profile.tap(try Self.ntag213(0x49))
        let tap = try #require(agent.waitForEvents("tap").first)
        let call = try #require(try PCSCSystemTests.AgentSystemTests.notify(server, count: 1).first)
        card.remove()
        #expect(call.summary == "nfctap.dev", "\(call)")
        #expect(call.body.contains(Self.uri), "\(call.body)")
        #expect(call.body.contains("ACS ACR122U PICC Interface"), "\(call.body)")  // its index grows with replugs
        #expect(tap["notification"] != nil, "\(tap)")
        // A MIFARE Classic 1K with the same message: a second notification, as for any NDEF tag.
        let classic = try profile.tap(VirtualMifareClassic.ndefFormatted(.classic1K, message: Self.message))
        _ = agent.waitForEvents("tap")
        let calls = try PCSCSystemTests.AgentSystemTests.notify(server, count: 2)
        classic.remove()
        #expect(calls.count == 2 && calls.last?.body.contains(Self.uri) == true, "\(calls)")
        agent.interrupt()
        #expect(agent.finish().status == 0)
    }

    @Test("inventory through libccid: one record per tag")
    func inventory() throws {
        let profile = USBProfile.omnikey
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("inventory.jsonl").path
        let card = try profile.tap(try Self.ntag213(0x48))
        let r = try runCLI(["inventory", "--output", output, "--timeout", "3", "--reader", profile.match], environment: USBRing.pcsc)
        card.remove()
        #expect(r.status == 0, "\(r.stderr)")
        let records = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(records.count == 1 && records[0].contains("04102030405048"), "\(records)")
        // A MIFARE Classic 4K: one record naming it, with its URI.
        let classic = try profile.tap(VirtualMifareClassic.ndefFormatted(.classic4K, message: Self.message, uid: [0x7A, 0x41, 0x0C, 0x93]))
        defer { classic.remove() }
        let again = try runCLI(["inventory", "--output", output, "--timeout", "3", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(again.status == 0, "\(again.stderr)")
        let all = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(all.count == 2 && all[1].contains("7A410C93") && all[1].contains("MIFARE Classic 4K") && all[1].contains(Self.uri), "\(all)")
    }

    @Test("pair --dry-run through libccid: says what it would do with a Zebra tag")
    func pairDryRun() throws {
        let card = try USBProfile.utrust.tap(VirtualType2Tag.zebraZQ320())
        defer { card.remove() }
        let r = try runCLI(["pair", "--dry-run", "--timeout", "20", "--reader", USBProfile.utrust.match], environment: USBRing.pcsc)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("would pair printer XXZFJ170700336 over Bluetooth Classic at CC:78:AB:3E:BA:E0"), "\(r.stdout)")
    }

    @Test("Core NFC sessions through libccid: single read, multi read, tag session with an APDU")
    func coreNFCSessions() throws {
        let single = try ExampleProcess("SingleReadExample", environment: USBRing.pcsc)
        single.waitUntilActive()
        let a = try USBProfile.utrust.tap(VirtualType4Tag(version: .v2, ndef: Self.message))
        #expect(single.finish() == 0)
        #expect(single.stdout == "URI: \(Self.uri)\n", "\(single.stderr)")
        a.remove()

        let multi = try ExampleProcess("InventoryExample", ["--time-limit", "0"], environment: USBRing.pcsc)
        multi.waitUntilActive()
        let b = try USBProfile.omnikey.tap(try Self.ntag213(0x61))
        _ = multi.waitForStdout("Tag 1: ")
        let c = try USBProfile.acr122u.tap(try Self.ntag213(0x62))
        _ = multi.waitForStdout("Tag 2: ")
        multi.send(SIGINT)
        #expect(multi.finish() == 0)
        #expect(multi.stdout == "Tag 1: URI: \(Self.uri)\nTag 2: URI: \(Self.uri)\n", "\(multi.stderr)")
        b.remove()
        c.remove()

        let tagSession = try ExampleProcess("TagReaderExample", environment: USBRing.pcsc)
        tagSession.waitUntilActive()
        let d = try USBProfile.acr1252u.tap(VirtualType4Tag(version: .v2, ndef: Self.message))
        #expect(tagSession.finish() == 0)
        #expect(tagSession.stdout.contains("SELECT NDEF application: SW 90 00"), "\(tagSession.stdout) \(tagSession.stderr)")
        d.remove()
    }

    // MARK: - libnfc's USB drivers

    /// Through libnfc's own USB driver `scan` opens the device once, as `nfc-list` opens it
    /// (pn53x_usb's open sends GetFirmwareVersion a fixed number of times), and closed at the end
    /// (its last command the one `nfc-list`'s nfc_close ends with).
    @Test("SCL3711 through libnfc's pn53x_usb: scan reads the tag through raw PN533 frames, opening the device once")
    func scl3711() throws {
        let emulator = PN532Emulator(tag: try Self.ntag213(0x51), linkPath: USBRing.chipLink)
        _ = try emulator.start()
        defer { emulator.stop() }
        let connstring = try USBRing.connstring("pn53x_usb", "scl3711")
        let getFirmwareVersion: [UInt8] = [0x02]
        // One open and close by libnfc's own tool, for the count an open makes.
        let device = String(connstring.dropFirst("libnfc:".count))
        let list = try runLibNFCTool("nfc-list", [], environment: USBRing.preload.merging(
            ["LIBNFC_DEVICE": device, "LIBNFC_AUTO_SCAN": "false"]) { $1 })
        #expect(list.status == 0, "\(list.stdout) \(list.stderr)")
        let perOpen = emulator.commandLog.filter { $0 == getFirmwareVersion }.count
        let closeCommand = try #require(emulator.commandLog.last)
        #expect(perOpen > 0)

        emulator.resetCounters()
        try USBRing.resetCounts("scl3711")
        let r = try runCLI(["scan", "--json", "--timeout", "20", "--reader", connstring], environment: USBRing.preload)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ScanJSON.decode(r.stdout).records?.map(\.uri) == [Self.uri])
        #expect(try USBRing.counts("scl3711")["pn53x-frame"] ?? 0 > 0)
        let log = emulator.commandLog
        #expect(log.filter { $0 == getFirmwareVersion }.count == perOpen, "opened more than once: \(log)")
        #expect(log.last == closeCommand, "closed by nfc_close, as nfc-list closes: \(log)")
    }

    @Test("ACR122U through libnfc's acr122_usb once pcscd lets it go; while pcscd holds it, an error naming both")
    func acr122uThroughLibNFC() throws {
        let name = "acr122u-libnfc"
        let emulator = PN532Emulator(tag: try Self.ntag213(0x52), linkPath: USBRing.chipLink)
        _ = try emulator.start()
        defer {
            emulator.stop()
            _ = try? USBRing.emulator("unplug", name)
            _ = try? USBRing.control(["pcscd-start"])
        }
        // A second ACR122U whose node is a file: libnfc's libusb-0.1 reads its descriptors there.
        try USBRing.emulator("plug", "acr122u,node=file,name=\(name),chip=\(USBRing.chipLink)")
        try USBRing.waitForReaders(USBRing.allReaderCount + 1)
        let connstring = try USBRing.connstring("acr122_usb", name)

        let held = try runCLI(["scan", "--json", "--timeout", "5", "--reader", connstring], environment: USBRing.preload)
        #expect(held.status != 0)
        #expect(held.stderr.contains("pcscd") && held.stderr.contains("libnfc"), "\(held.stderr)")
        let doctor = try runCLI(["doctor"], environment: USBRing.preload)
        #expect(doctor.stdout.contains("pcscd holds"), "\(doctor.stdout)")

        // pcscd stopped and the reader plugged in again (a fresh device: no claim left from pcscd).
        try USBRing.control(["pcscd-stop"])
        try USBRing.emulator("unplug", name)
        try USBRing.emulator("replug", name)
        let fresh = try USBRing.connstring("acr122_usb", name)
        let r = try runCLI(["scan", "--json", "--timeout", "20", "--reader", fresh], environment: USBRing.preload)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ScanJSON.decode(r.stdout).records?.map(\.uri) == [Self.uri])
    }

    // MARK: - what the real driver refuses

    @Test("an ACR122U at firmware 2.05: libccid refuses it, doctor names the reader and the fix")
    func firmware205() throws {
        let name = "acr122u-205"
        defer { _ = try? USBRing.emulator("unplug", name) }
        try USBRing.emulator("plug", "acr122u,bcd=0205,name=\(name)")
        let readers = try runCLI(["readers", "--json"], environment: USBRing.pcsc)
        #expect(!readers.stdout.contains("05 00"), "\(readers.stdout)")
        let doctor = try runCLI(["doctor"], environment: USBRing.preload)
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        let finding = lines.firstIndex { $0.contains("reader-firmware") && $0.contains("ACR122U") && $0.contains("2.05") }
        #expect(finding != nil, "\(doctor.stdout)")
        if let finding { #expect(lines[finding + 1].contains("fix:"), "\(doctor.stdout)") }
    }

    @Test("escape commands refused by libccid: the ACR1252U kiosk still reads, doctor says so once")
    func escapeRefused() throws {
        let profile = USBProfile.acr1252u
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try USBRing.resetCounts(profile.key)
        let (kiosk, output) = try Self.kiosk(on: profile, in: dir)
        kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains("ACR1252") }
        for n: UInt8 in [0x53, 0x54] {
            let card = try profile.tap(try Self.ntag213(n))
            _ = try waitForJSONLines(output, count: Int(n - 0x52))
            card.remove()
        }
        #expect(kiosk.terminate() == 0)
        // libccid never passed an escape to the reader (ifdDriverOptions 0x0000).
        let counts = try USBRing.counts(profile.key)
        #expect(counts["Escape"] == nil && counts["buzzer"] == nil, "\(counts)")
        let doctor = try runCLI(["doctor"], environment: USBRing.preload)
        #expect(doctor.stdout.components(separatedBy: "escape-commands").count - 1 == 1, "\(doctor.stdout)")
        #expect(doctor.stdout.contains("ifdDriverOptions"))
    }
}
