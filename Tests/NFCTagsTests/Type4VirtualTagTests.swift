import NDEF
import NFCTags
import TagEmulation
import Testing

@Suite("VirtualType4Tag answers like a real tag")
struct Type4VirtualTagTests {
    /// Sends hex commands in order; returns the last reply as hex.
    func run(_ tag: VirtualType4Tag, _ commands: String...) -> String {
        var last: [UInt8]? = nil
        for c in commands { last = tag.respond(to: T4.hex(c)) }
        return last?.hexString(separator: " ") ?? "no reply"
    }

    let app = "00 A4 04 00 07 D2 76 00 00 85 01 01 00"
    let cc = "00 A4 00 0C 02 E1 03"
    let ndef = "00 A4 00 0C 02 E1 04"

    @Test("identity: SAK 20, ATQA, ATS and its historical bytes")
    func identity() {
        let tag = VirtualType4Tag()
        #expect(tag.sak == 0x20)
        #expect(tag.atqa == [0x03, 0x44])
        #expect(tag.uid.count == 7)
        #expect(tag.ats == T4.hex("06 77 77 71 02 80"))
        #expect(tag.historicalBytes == [0x80])
        let other = VirtualType4Tag(atqa: [0x00, 0x04], ats: T4.hex("05 78 80 70 02"))
        #expect(other.atqa == [0x00, 0x04])
        #expect(other.historicalBytes == [])
    }

    @Test("CC files of each version")
    func ccFiles() {
        #expect(VirtualType4Tag(version: .v1).ccFile == T4.hex("00 0F 10 00 F6 00 F6 04 06 E1 04 08 00 00 00"))
        #expect(VirtualType4Tag(version: .v2, maxResponseLength: 0x3B, maxCommandLength: 0x34, maxSize: 0x100,
                                writeAccess: 0xFF).ccFile == T4.hex("00 0F 20 00 3B 00 34 04 06 E1 04 01 00 00 FF"))
        #expect(VirtualType4Tag(version: .v3, maxSize: 0x12345).ccFile == T4.hex("00 11 30 00 F6 00 F6 06 08 E1 04 00 01 23 45 00 00"))
    }

    @Test("NDEF file starts with NLEN, or ENLEN on v3")
    func ndefFile() {
        let v2 = VirtualType4Tag(ndef: [0xD0, 0x00, 0x00], maxSize: 8)
        #expect(v2.ndefFile == T4.hex("00 03 D0 00 00 00 00 00"))
        let v3 = VirtualType4Tag(version: .v3, ndef: [0xD0, 0x00, 0x00], maxSize: 8)
        #expect(v3.ndefFile == T4.hex("00 00 00 03 D0 00 00 00"))
        #expect(v3.ndefMessage == [0xD0, 0x00, 0x00])
    }

    @Test("SELECT by AID: known 90 00, unknown 6A 82, bad P2/P1 6A 86")
    func selectApplication() {
        let tag = VirtualType4Tag()
        #expect(run(tag, app) == "90 00")
        #expect(run(tag, "00 A4 04 00 07 D2 76 00 00 85 01 00") == "6A 82")
        #expect(run(tag, "00 A4 04 00 07 A0 00 00 00 03 10 10 00") == "6A 82")
        #expect(run(tag, "00 A4 04 0C 07 D2 76 00 00 85 01 01") == "6A 86")
        #expect(run(tag, "00 A4 02 00 07 D2 76 00 00 85 01 01 00") == "6A 86")
        let legacy = VirtualType4Tag(version: .v1)
        #expect(run(legacy, app) == "6A 82")
        #expect(run(legacy, "00 A4 04 00 07 D2 76 00 00 85 01 00") == "90 00")
    }

    @Test("SELECT by file ID: needs the application, the right P2 and a known file")
    func selectFile() {
        let tag = VirtualType4Tag()
        #expect(run(tag, cc) == "6A 82")
        #expect(run(tag, app, cc) == "90 00")
        #expect(run(tag, app, ndef) == "90 00")
        #expect(run(tag, app, "00 A4 00 0C 02 E1 05") == "6A 82")
        #expect(run(tag, app, "00 A4 00 00 02 E1 03") == "6A 86")
        #expect(run(tag, app, "00 A4 00 0C 03 E1 03 00") == "67 00")
        let legacy = VirtualType4Tag(version: .v1)
        #expect(run(legacy, "00 A4 04 00 07 D2 76 00 00 85 01 00", "00 A4 00 0C 02 E1 03") == "6A 86")
        #expect(run(legacy, "00 A4 04 00 07 D2 76 00 00 85 01 00", "00 A4 00 00 02 E1 03") == "90 00")
    }

    @Test("READ BINARY: data, 6B 00 past the end, 67 00 above MLe, 69 86 with no file")
    func readBinary() {
        let tag = VirtualType4Tag(ndef: [0xD0, 0x00, 0x00], maxSize: 8)
        #expect(run(tag, "00 B0 00 00 02") == "69 86")
        #expect(run(tag, app, ndef, "00 B0 00 00 05") == "00 03 D0 00 00 90 00")
        #expect(run(tag, app, ndef, "00 B0 00 07 01") == "00 90 00")
        #expect(run(tag, app, ndef, "00 B0 00 08 01") == "6B 00")
        #expect(run(tag, app, ndef, "00 B0 00 04 05") == "6B 00")
        #expect(run(tag, app, ndef, "00 B0 00 00 F7") == "67 00")
        #expect(run(tag, app, ndef, "00 B0 00 00") == "67 00")
        #expect(run(tag, app, ndef, "00 B0 81 00 01") == "6A 86")
    }

    @Test("read access denied → 69 82 on the NDEF file; the CC stays readable")
    func readDenied() {
        let tag = VirtualType4Tag(readAccess: 0xFF)
        #expect(run(tag, app, ndef, "00 B0 00 00 02") == "69 82")
        #expect(run(tag, app, cc, "00 B0 00 0D 01") == "FF 90 00")
    }

    @Test("UPDATE BINARY: writes, 67 00 above MLc, 6B 00 past the end, 69 82 when denied")
    func updateBinary() {
        let tag = VirtualType4Tag(maxCommandLength: 0x10, maxSize: 0x20)
        #expect(run(tag, app, ndef, "00 D6 00 02 03 D0 00 00") == "90 00")
        #expect(Array(tag.ndefFile[2..<5]) == [0xD0, 0x00, 0x00])
        #expect(run(tag, app, ndef, "00 D6 00 00 11" + String(repeating: " 00", count: 17)) == "67 00")
        #expect(run(tag, app, ndef, "00 D6 00 1F 02 01 02") == "6B 00")
        #expect(run(tag, app, ndef, "00 D6 00 20 01 01") == "6B 00")
        let ro = VirtualType4Tag.readOnly()
        #expect(run(ro, app, ndef, "00 D6 00 00 02 00 00") == "69 82")
        #expect(run(ro, app, cc, "00 D6 00 0E 01 00") == "69 82")
    }

    @Test("write access follows the CC file as it changes")
    func liveAccess() {
        let tag = VirtualType4Tag()
        #expect(run(tag, app, cc, "00 D6 00 0E 01 FF") == "90 00")
        #expect(run(tag, app, ndef, "00 D6 00 00 02 00 00") == "69 82")
    }

    @Test("B1/D7 on v3 with offset and data objects; 6D 00 on v2")
    func odo() {
        let tag = VirtualType4Tag(version: .v3, ndef: VirtualType4Tag.sampleMessage(size: 0x9000), maxSize: 0x9010)
        let file = tag.ndefFile
        #expect(run(tag, app, ndef, "00 B1 00 00 05 54 03 00 80 00 06")
                == (T4.hex("53 04") + Array(file[0x8000..<0x8004]) + [0x90, 0x00]).hexString(separator: " "))
        #expect(run(tag, app, ndef, "00 D7 00 00 09 54 03 00 90 00 53 02 AA BB") == "90 00")
        #expect(Array(tag.ndefFile[0x9000..<0x9002]) == [0xAA, 0xBB])
        #expect(run(tag, app, ndef, "00 B1 00 00 05 54 03 00 90 10 06") == "6B 00")
        #expect(run(tag, app, ndef, "00 B1 00 00 04 54 02 90 00 06") == "6A 80")
        #expect(run(tag, app, ndef, "00 B1 00 01 05 54 03 00 80 00 06") == "6A 86")
        #expect(run(tag, app, ndef, "00 D7 00 00 08 54 03 00 90 00 53 02 AA") == "6A 80")
        let v2 = VirtualType4Tag()
        #expect(run(v2, app, ndef, "00 B1 00 00 05 54 03 00 00 00 06") == "6D 00")
    }

    @Test("unknown INS → 6D 00, CLA ≠ 00 → 6E 00, garbage → 67 00")
    func unknown() {
        let tag = VirtualType4Tag()
        #expect(run(tag, "00 CA 00 00 00") == "6D 00")
        #expect(run(tag, "90 60 00 00 00") == "6E 00")
        #expect(run(tag, "00 A4") == "67 00")
        #expect(run(tag, "00 A4 04 00 09 D2 76") == "67 00")
    }

    @Test("activate() forgets the selected application and file")
    func activate() {
        let tag = VirtualType4Tag.smallMessage()
        #expect(run(tag, app, ndef, "00 B0 00 00 02") == "00 12 90 00")
        tag.activate()
        #expect(run(tag, "00 B0 00 00 02") == "69 86")
        #expect(run(tag, ndef) == "6A 82")
    }

    @Test("presets")
    func presets() {
        #expect(VirtualType4Tag.sampleURIMessage.count == 18)
        for size in [16, 200, 271, 272, 4096, 40000] {
            #expect(VirtualType4Tag.sampleMessage(size: size).count == size)
        }
        #expect(VirtualType4Tag.largeMessage(version: .v3, size: 40000).ndefMessage == VirtualType4Tag.sampleMessage(size: 40000))
        #expect(VirtualType4Tag.readOnly().ccFile[14] == 0xFF)
    }
}
