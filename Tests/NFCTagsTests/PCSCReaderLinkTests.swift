import Testing
import NFCTags

/// Answers from a script, one per exchange; records what was sent. An exhausted script is tag loss.
final class ScriptedTransceiver: Transceiver {
    var replies: [[UInt8]]
    var sent: [[UInt8]] = []
    init(_ replies: [[UInt8]]) { self.replies = replies }
    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        sent.append(command)
        guard !replies.isEmpty else { throw TagError.tagLost }
        return replies.removeFirst()
    }
}

@Suite("PseudoAPDUType2Link: Type 2 commands as PC/SC pseudo-APDUs")
struct PCSCReaderLinkTests {
    @Test func profileCapabilities() {
        #expect(PCSCReaderProfile.acr122u.fastReadLimit == 240)
        #expect(PCSCReaderProfile.acr122u.supportsDirectTransmit)
        // PC/SC Part 3 transparent exchange: raw commands and FAST_READ, no PN532 direct transmit.
        for profile in [PCSCReaderProfile.acr1252u, .identiv, .omnikey, .springcard] {
            #expect(profile.fastReadLimit == 240)
            #expect(profile.supportsTransparentExchange)
            #expect(!profile.supportsDirectTransmit)
        }
        #expect(PCSCReaderProfile.generic.fastReadLimit == 0)
        #expect(PCSCReaderProfile.generic.rawCommandPath == .none)
        #expect(PCSCReaderProfile.identiv.readBinaryLength == 4)
        #expect(PCSCReaderProfile.generic.readBinaryLength == 16)
    }

    @Test func readBinaryFraming() throws {
        let t = ScriptedTransceiver([T2.hex("E1 10 12 00 90 00")])
        let link = PseudoAPDUType2Link(transceiver: t, profile: .identiv)
        #expect(try link.read(page: 3) == T2.hex("E1 10 12 00"))
        #expect(t.sent == [T2.hex("FF B0 00 03 04")])
        let g = ScriptedTransceiver([T2.hex("00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 90 00")])
        #expect(try PseudoAPDUType2Link(transceiver: g, profile: .generic).read(page: 0xE6).count == 16)
        #expect(g.sent == [T2.hex("FF B0 00 E6 10")])
    }

    @Test func readBinaryErrors() throws {
        func read(_ reply: String) throws(TagError) -> [UInt8] {
            try PseudoAPDUType2Link(transceiver: ScriptedTransceiver([T2.hex(reply)]), profile: .generic).read(page: 4)
        }
        // A refused 16-byte read is retried for the page alone; refused again: the typed error.
        #expect(throws: TagError.pageRefused(page: 4, sw1: 0x63, sw2: 0x00)) {
            try PseudoAPDUType2Link(transceiver: ScriptedTransceiver([T2.hex("63 00"), T2.hex("63 00")]), profile: .generic).read(page: 4)
        }
        let retried = ScriptedTransceiver([T2.hex("6B 00"), T2.hex("01 02 03 04 90 00")])
        #expect(try PseudoAPDUType2Link(transceiver: retried, profile: .generic).read(page: 15) == [1, 2, 3, 4])
        #expect(retried.sent == [T2.hex("FF B0 00 0F 10"), T2.hex("FF B0 00 0F 04")])
        #expect(throws: TagError.status(sw1: 0x6A, sw2: 0x81)) { try read("6A 81") }
        #expect(throws: TagError.malformedReply("READ BINARY of page 4 returned no data")) { try read("90 00") }
        #expect(throws: TagError.malformedReply("reply of 1 bytes has no status word")) { try read("90") }
        #expect(throws: TagError.malformedReply("reply of 0 bytes has no status word")) { try read("") }
        #expect(throws: TagError.malformedReply("READ BINARY of page 4 returned 17 bytes, more than 16")) {
            try read("00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 90 00")
        }
        #expect(throws: TagError.malformedReply("READ BINARY of page 4 returned 6 bytes, more than 4")) {
            try PseudoAPDUType2Link(transceiver: ScriptedTransceiver([T2.hex("E1 10 12 00 90 00 90 00")]), profile: .identiv).read(page: 4)
        }
        #expect(throws: TagError.unsupported("page 256 is beyond what READ BINARY addresses for a Type 2 tag")) {
            try PseudoAPDUType2Link(transceiver: ScriptedTransceiver([]), profile: .generic).read(page: 256)
        }
    }

    @Test func updateBinaryFraming() throws {
        // The 63 00 is checked by reading the page back (docs/tags-and-readers.md §3): not the data written.
        let t = ScriptedTransceiver([T2.hex("90 00"), T2.hex("63 00"), T2.hex("11 22 33 44 90 00"), T2.hex("01 90 00")])
        let link = PseudoAPDUType2Link(transceiver: t, profile: .acr122u)
        try link.write(page: 4, data: T2.hex("03 00 FE 00"))
        #expect(t.sent == [T2.hex("FF D6 00 04 04 03 00 FE 00")])
        #expect(throws: TagError.status(sw1: 0x63, sw2: 0x00)) { try link.write(page: 5, data: [0, 0, 0, 0]) }
        #expect(throws: TagError.malformedReply("UPDATE BINARY answered 1 data bytes")) { try link.write(page: 5, data: [0, 0, 0, 0]) }
        #expect(throws: TagError.unsupported("a Type 2 page write takes 4 bytes, not 3")) { try link.write(page: 5, data: [0, 0, 0]) }
        #expect(t.sent[2] == T2.hex("FF B0 00 05 10"))
        #expect(t.sent.count == 4, "a bad argument sends nothing")
    }

    @Test func fastReadThroughInCommunicateThru() throws {
        let t = ScriptedTransceiver([T2.hex("D5 43 00 E1 10 12 00 01 03 A0 0C 90 00")])
        let link = PseudoAPDUType2Link(transceiver: t, profile: .acr122u)
        #expect(try link.fastRead(from: 3, to: 4) == T2.hex("E1 10 12 00 01 03 A0 0C"))
        #expect(t.sent == [T2.hex("FF 00 00 00 05 D4 42 3A 03 04")])
        #expect(throws: TagError.unsupported("FAST_READ of pages 0-60 through acr122u readers")) {
            try link.fastRead(from: 0, to: 60)
        }
        #expect(throws: TagError.unsupported("FAST_READ through generic readers")) {
            try PseudoAPDUType2Link(transceiver: t, profile: .generic).fastRead(from: 0, to: 3)
        }
    }

    @Test func pn532StatusMeanings() {
        func fastRead(_ reply: String) throws(TagError) -> [UInt8] {
            try PseudoAPDUType2Link(transceiver: ScriptedTransceiver([T2.hex(reply)]), profile: .acr122u).fastRead(from: 4, to: 4)
        }
        #expect(throws: TagError.tagLost) { try fastRead("D5 43 01 90 00") }
        #expect(throws: TagError.malformedReply("CRC error from the tag")) { try fastRead("D5 43 02 90 00") }
        #expect(throws: TagError.tagLost) { try fastRead("D5 43 29 90 00") }
        #expect(throws: TagError.transport(code: 0x0A, message: "PN532 error 0A")) { try fastRead("D5 43 0A 90 00") }
        #expect(throws: TagError.nak(0x00)) { try fastRead("D5 43 00 00 90 00") }
        #expect(throws: TagError.malformedReply("FAST_READ 4-4 returned 3 bytes")) { try fastRead("D5 43 00 01 02 03 90 00") }
        #expect(throws: TagError.malformedReply("FAST_READ 4-4 returned 5 bytes")) { try fastRead("D5 43 00 01 02 03 04 05 90 00") }
        #expect(throws: TagError.malformedReply("PN532 answered D541 to D442")) { try fastRead("D5 41 00 01 02 03 04 90 00") }
        #expect(throws: TagError.malformedReply("InCommunicateThru answer has no status")) { try fastRead("D5 43 90 00") }
        #expect(throws: TagError.status(sw1: 0x63, sw2: 0x27)) { try fastRead("63 27") }
    }

    @Test func getVersion() throws {
        let t = ScriptedTransceiver([T2.hex("D5 43 00 00 04 04 02 01 00 11 03 90 00")])
        #expect(try PseudoAPDUType2Link(transceiver: t, profile: .acr122u).getVersion() == T2.hex("00 04 04 02 01 00 11 03"))
        #expect(t.sent == [T2.hex("FF 00 00 00 03 D4 42 60")])
        #expect(throws: TagError.unsupported("GET_VERSION through generic readers")) {
            try PseudoAPDUType2Link(transceiver: ScriptedTransceiver([]), profile: .generic).getVersion()
        }
        #expect(throws: TagError.malformedReply("GET_VERSION returned 7 bytes, not 8")) {
            try PseudoAPDUType2Link(transceiver: ScriptedTransceiver([T2.hex("D5 43 00 00 04 04 02 01 00 11 90 00")]), profile: .acr122u).getVersion()
        }
    }

    @Test func getVersionUnansweredReselects() {
        let t = ScriptedTransceiver([T2.hex("D5 43 01 90 00"), T2.hex("D5 4B 01 01 00 44 00 07 04 5A 2C 91 6E 3F 80 90 00")])
        #expect(throws: TagError.unsupported("the tag does not answer GET_VERSION")) {
            try PseudoAPDUType2Link(transceiver: t, profile: .acr122u).getVersion()
        }
        #expect(t.sent == [T2.hex("FF 00 00 00 03 D4 42 60"), T2.hex("FF 00 00 00 04 D4 4A 01 00")])

        let nak = ScriptedTransceiver([T2.hex("D5 43 00 04 90 00"), T2.hex("D5 4B 01 01 00 44 00 07 04 5A 2C 91 6E 3F 80 90 00")])
        #expect(throws: TagError.nak(0x04)) { try PseudoAPDUType2Link(transceiver: nak, profile: .acr122u).getVersion() }
        #expect(nak.sent.count == 2)

        let gone = ScriptedTransceiver([T2.hex("D5 43 01 90 00"), T2.hex("D5 4B 00 90 00")])
        #expect(throws: TagError.tagLost) { try PseudoAPDUType2Link(transceiver: gone, profile: .acr122u).getVersion() }
    }
}
