import NDEF
import NFCTags
import Testing

@Suite("Command APDU encoding and parsing")
struct CommandAPDUTests {
    /// One table drives both directions: (apdu fields, encoded bytes).
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let ins: UInt8
        let data: [UInt8]
        let le: Int?
        let encoded: String
        let isoCase: Int
        let extended: Bool
        var testDescription: String { name }
    }

    static let bytes255 = [UInt8](repeating: 0xAB, count: 255)
    static let bytes256 = [UInt8](repeating: 0xCD, count: 256)

    static let vectors: [Vector] = [
        Vector(name: "case 1", ins: 0xA4, data: [], le: nil, encoded: "00 A4 00 00", isoCase: 1, extended: false),
        Vector(name: "case 2S Le 1", ins: 0xB0, data: [], le: 1, encoded: "00 B0 00 00 01", isoCase: 2, extended: false),
        Vector(name: "case 2S Le 255", ins: 0xB0, data: [], le: 255, encoded: "00 B0 00 00 FF", isoCase: 2, extended: false),
        Vector(name: "case 2S Le 256 as 00", ins: 0xB0, data: [], le: 256, encoded: "00 B0 00 00 00", isoCase: 2, extended: false),
        Vector(name: "case 2E Le 257", ins: 0xB0, data: [], le: 257, encoded: "00 B0 00 00 00 01 01", isoCase: 2, extended: true),
        Vector(name: "case 2E Le 65535", ins: 0xB0, data: [], le: 65535, encoded: "00 B0 00 00 00 FF FF", isoCase: 2, extended: true),
        Vector(name: "case 2E Le 65536 as 0000", ins: 0xB0, data: [], le: 65536, encoded: "00 B0 00 00 00 00 00", isoCase: 2, extended: true),
        Vector(name: "case 3S", ins: 0xD6, data: [0xE1, 0x03], le: nil, encoded: "00 D6 00 00 02 E1 03", isoCase: 3, extended: false),
        Vector(name: "case 3S Lc 255", ins: 0xD6, data: bytes255, le: nil,
               encoded: "00 D6 00 00 FF" + String(repeating: " AB", count: 255), isoCase: 3, extended: false),
        Vector(name: "case 3E Lc 256", ins: 0xD6, data: bytes256, le: nil,
               encoded: "00 D6 00 00 00 01 00" + String(repeating: " CD", count: 256), isoCase: 3, extended: true),
        Vector(name: "case 4S select NDEF app", ins: 0xA4, data: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01], le: 256,
               encoded: "00 A4 00 00 07 D2 76 00 00 85 01 01 00", isoCase: 4, extended: false),
        Vector(name: "case 4S Le 255", ins: 0xB1, data: [0x54, 0x03, 0x00, 0x80, 0x00], le: 255,
               encoded: "00 B1 00 00 05 54 03 00 80 00 FF", isoCase: 4, extended: false),
        Vector(name: "case 4E forced by Le 257", ins: 0xB1, data: [0x01, 0x02, 0x03], le: 257,
               encoded: "00 B1 00 00 00 00 03 01 02 03 01 01", isoCase: 4, extended: true),
        Vector(name: "case 4E forced by Lc 256", ins: 0xD7, data: bytes256, le: 10,
               encoded: "00 D7 00 00 00 01 00" + String(repeating: " CD", count: 256) + " 00 0A", isoCase: 4, extended: true),
        Vector(name: "case 4E Le 65536", ins: 0xB1, data: [0x54], le: 65536,
               encoded: "00 B1 00 00 00 00 01 54 00 00", isoCase: 4, extended: true),
    ]

    @Test("encodes", arguments: vectors)
    func encodes(_ v: Vector) throws {
        let apdu = try CommandAPDU(cla: 0x00, ins: v.ins, p1: 0x00, p2: 0x00, data: v.data, le: v.le)
        #expect(apdu.bytes == T4.hex(v.encoded))
        #expect(apdu.isoCase == v.isoCase)
        #expect(apdu.isExtended == v.extended)
    }

    @Test("parses back to the same fields", arguments: vectors)
    func parses(_ v: Vector) throws {
        let apdu = try CommandAPDU(bytes: T4.hex(v.encoded))
        #expect(apdu.cla == 0x00 && apdu.ins == v.ins && apdu.p1 == 0x00 && apdu.p2 == 0x00)
        #expect(apdu.data == v.data)
        #expect(apdu.le == v.le)
    }

    @Test("header bytes land in place")
    func header() throws {
        let apdu = try CommandAPDU(cla: 0x80, ins: 0xCA, p1: 0x9F, p2: 0x7F, le: 256)
        #expect(apdu.bytes == T4.hex("80 CA 9F 7F 00"))
        #expect(apdu.description == "80 CA 9F 7F 00")
    }

    @Test("Lc 65535 is the largest data field")
    func largestData() throws {
        let data = [UInt8](repeating: 0x11, count: 65535)
        let apdu = try CommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: data, le: nil)
        #expect(Array(apdu.bytes.prefix(7)) == T4.hex("00 D6 00 00 00 FF FF"))
        #expect(apdu.bytes.count == 7 + 65535)
        #expect(try CommandAPDU(bytes: apdu.bytes) == apdu)
    }

    @Test("rejects Le and Lc out of range", arguments: [0, -1, 65537, Int.max, Int.min])
    func rejectsLe(_ le: Int) {
        #expect(throws: APDUError.expectedLengthOutOfRange(le)) {
            try CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, le: le)
        }
    }

    @Test("rejects 65536 data bytes")
    func rejectsData() {
        #expect(throws: APDUError.dataTooLong(65536)) {
            try CommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65536))
        }
    }

    @Test("malformed bytes are a typed error", arguments: [
        "",
        "00",
        "00 A4 04",
        "00 A4 04 00 02 01",                // short Lc 2, one byte
        "00 A4 04 00 01 01 02 03",          // short Lc 1, three bytes
        "00 B0 00 00 00 00",                // extended marker, one length byte
        "00 D6 00 00 00 00 00 01",          // extended Lc 0000 with data
        "00 D6 00 00 00 00 03 01 02",       // extended Lc 3, two bytes
        "00 D6 00 00 00 00 02 01 02 00",    // extended Lc 2 + a one-byte Le
        "00 D6 00 00 00 00 02 01 02 00 00 00", // extended Lc 2 + three trailing bytes
    ])
    func malformed(_ text: String) {
        #expect(throws: APDUError.self) { try CommandAPDU(bytes: T4.hex(text)) }
    }
}

@Suite("Response APDU")
struct ResponseAPDUTests {
    @Test("splits data and status word")
    func splits() throws {
        let r = try ResponseAPDU(bytes: T4.hex("01 02 03 90 00"))
        #expect(r.data == [1, 2, 3])
        #expect(r.sw1 == 0x90 && r.sw2 == 0x00)
        #expect(r.isSuccess)
        #expect(r.statusWord == 0x9000)
        #expect(try r.successData() == [1, 2, 3])
        #expect(r.bytes == T4.hex("01 02 03 90 00"))
    }

    @Test("status word alone")
    func statusOnly() throws {
        let r = try ResponseAPDU(bytes: T4.hex("6A 82"))
        #expect(r.data.isEmpty)
        #expect(!r.isSuccess)
        #expect(r.statusWord == 0x6A82)
        #expect(throws: TagError.status(sw1: 0x6A, sw2: 0x82)) { try r.successData() }
        #expect(r.description == "6A 82 (file or application not found)")
    }

    @Test("90 01 and 91 00 are not success", arguments: ["90 01", "91 00", "61 10", "00 90"])
    func notSuccess(_ text: String) throws {
        #expect(try !ResponseAPDU(bytes: T4.hex(text)).isSuccess)
    }

    @Test("fewer than two bytes is a malformed reply", arguments: ["", "90"])
    func short(_ text: String) {
        #expect(throws: TagError.self) { try ResponseAPDU(bytes: T4.hex(text)) }
        do {
            _ = try ResponseAPDU(bytes: T4.hex(text))
        } catch let TagError.malformedReply(why) {
            #expect(why.contains("no status word"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("Transceiver.send sends the encoded APDU once and splits the reply")
    func send() throws {
        let channel = Type4ScriptedTransceiver([T4.hex("E1 03 90 00")])
        let r = try channel.send(CommandAPDU(cla: 0, ins: 0xB0, p1: 0x00, p2: 0x02, le: 2))
        #expect(channel.sent == [T4.hex("00 B0 00 02 02")])
        #expect(r == ResponseAPDU(data: [0xE1, 0x03], sw1: 0x90, sw2: 0x00))
    }

    @Test("Transceiver.send passes transport errors through")
    func sendLost() throws {
        let channel = Type4ScriptedTransceiver([])
        #expect(throws: TagError.tagLost) { try channel.send(CommandAPDU(cla: 0, ins: 0xA4, p1: 0, p2: 0)) }
    }
}
