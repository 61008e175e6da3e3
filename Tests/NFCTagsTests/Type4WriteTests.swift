import NDEF
import NFCTags
import TagEmulation
import Testing

@Suite("Type 4 write and lock: exact command sequences, tear safety")
struct Type4WriteTests {
    static let message600 = VirtualType4Tag.sampleMessage(size: 600)

    @Test("v2 small message: NLEN 0, message at offset 2, NLEN")
    func smallV2() throws {
        let tag = VirtualType4Tag(ndef: [])
        let (t4, plan) = T4.connect(tag)
        let message = VirtualType4Tag.sampleURIMessage
        try t4.writeNDEF(message)
        #expect(T4.lines(plan.log) == T4.lines([
            T4.selectApp, T4.selectCC, T4.readCC, T4.selectNDEF,
            T4.hex("00 D6 00 00 02 00 00"),
            T4.hex("00 D6 00 02 12") + message,
            T4.hex("00 D6 00 00 02 00 12"),
        ]))
        #expect(tag.ndefMessage == message)
    }

    @Test("v2 600 bytes in MLc-sized chunks")
    func chunkedV2() throws {
        let tag = VirtualType4Tag(ndef: VirtualType4Tag.sampleURIMessage)
        let (t4, plan) = T4.connect(tag)
        let m = Self.message600
        try t4.writeNDEF(m)
        #expect(T4.lines(Array(plan.log.dropFirst(4))) == T4.lines([
            T4.hex("00 D6 00 00 02 00 00"),
            T4.hex("00 D6 00 02 F6") + Array(m[0..<246]),
            T4.hex("00 D6 00 F8 F6") + Array(m[246..<492]),
            T4.hex("00 D6 01 EE 6C") + Array(m[492..<600]),
            T4.hex("00 D6 00 00 02 02 58"),
        ]))
        #expect(tag.ndefMessage == m)
        #expect(try t4.readNDEF() == m)
    }

    @Test("v3 40 000 bytes: ENLEN, D6 up to 7FFF, then D7 with offset and data objects")
    func largeV3() throws {
        let tag = VirtualType4Tag(version: .v3, maxSize: 40068)
        let (t4, plan) = T4.connect(tag)
        let m = VirtualType4Tag.sampleMessage(size: 40000)
        try t4.writeNDEF(m)
        let log = plan.log
        #expect(T4.lines(Array(log.prefix(6))) == T4.lines([
            T4.selectApp, T4.selectCC, T4.readCC, T4.readCCv3Tail, T4.selectNDEF,
            T4.hex("00 D6 00 00 04 00 00 00 00"),
        ]))
        let d6 = log.filter { $0[1] == 0xD6 }
        let d7 = log.filter { $0[1] == 0xD7 }
        #expect(d6.count == 1 + 134 + 1)
        #expect(d6[1] == T4.hex("00 D6 00 04 F6") + Array(m[0..<246]))
        #expect(Array(d6[134].prefix(5)) == T4.hex("00 D6 7F D2 F6"))
        #expect(d7.count == 30)
        #expect(d7[0] == T4.hex("00 D7 00 00 F6 54 03 00 80 C8 53 81 EE") + Array(m[32964..<(32964 + 238)]))
        #expect(d7[29] == T4.hex("00 D7 00 00 8E 54 03 00 9B BE 53 81 86") + Array(m[39866..<40000]))
        #expect(log.last == T4.hex("00 D6 00 00 04 00 00 9C 40"))
        #expect(log.count == 171)
        #expect(tag.ndefMessage == m)
        #expect(try t4.readNDEF() == m)
    }

    @Test("legacy v1 write selects with P2 = 00")
    func legacy() throws {
        let tag = VirtualType4Tag(version: .v1)
        let (t4, plan) = T4.connect(tag)
        let m = VirtualType4Tag.sampleURIMessage
        try t4.writeNDEF(m)
        #expect(T4.lines(plan.log) == T4.lines([
            T4.selectApp, T4.selectLegacyApp, T4.selectCCLegacy, T4.readCC, T4.selectNDEFLegacy,
            T4.hex("00 D6 00 00 02 00 00"), T4.hex("00 D6 00 02 12") + m, T4.hex("00 D6 00 00 02 00 12"),
        ]))
        #expect(tag.ndefMessage == m)
    }

    @Test("write then read gives the same bytes", arguments: [VirtualType4Tag.Version.v1, .v2, .v3])
    func roundTrip(_ version: VirtualType4Tag.Version) throws {
        for size in [16, 243, 244, 245, 246, 247, 1000, 5000] {
            let tag = VirtualType4Tag(version: version, ndef: VirtualType4Tag.sampleURIMessage, maxSize: 6000)
            let (t4, _) = T4.connect(tag)
            let m = VirtualType4Tag.sampleMessage(size: size)
            try t4.writeNDEF(m)
            #expect(try t4.readNDEF() == m, "size \(size)")
        }
    }

    @Test("empty message: only NLEN = 0 is written")
    func emptyMessage() throws {
        let tag = VirtualType4Tag.smallMessage()
        let (t4, plan) = T4.connect(tag)
        try t4.writeNDEF([])
        #expect(plan.log.last == T4.hex("00 D6 00 00 02 00 00"))
        #expect(plan.exchangeCount == 5)
        #expect(tag.ndefMessage == [])
    }

    @Test("a message that fills the file exactly fits; one byte more does not, and nothing is written")
    func capacity() throws {
        let tag = VirtualType4Tag(ndef: [], maxSize: 0x0100)
        let (t4, plan) = T4.connect(tag)
        let full = VirtualType4Tag.sampleMessage(size: 0xFE)
        try t4.writeNDEF(full)
        #expect(tag.ndefMessage == full)
        plan.reset()
        #expect(throws: TagError.messageTooLarge(size: 0xFF, capacity: 0xFE)) {
            try t4.writeNDEF(VirtualType4Tag.sampleMessage(size: 0xFF))
        }
        // The object knows the CC from the first write: refused without an exchange.
        #expect(plan.exchangeCount == 0)
        plan.reset()
        #expect(throws: TagError.messageTooLarge(size: 0xFF, capacity: 0xFE)) {
            try T4.fresh(t4).writeNDEF(VirtualType4Tag.sampleMessage(size: 0xFF))
        }
        #expect(plan.exchangeCount == 3)
        #expect(tag.ndefMessage == full)
    }

    @Test("1- and 2-byte messages are refused before any exchange")
    func tooShort() {
        let (t4, plan) = T4.connect(VirtualType4Tag())
        for m in [[UInt8(0xD0)], [0xD0, 0x00]] {
            #expect(throws: TagError.self) { try t4.writeNDEF(m) }
        }
        #expect(plan.exchangeCount == 0)
    }

    @Test("read-only tag: TagError.readOnly after reading the CC, nothing written")
    func readOnly() {
        let tag = VirtualType4Tag.readOnly()
        let (t4, plan) = T4.connect(tag)
        #expect(throws: TagError.readOnly) { try t4.writeNDEF(Self.message600) }
        #expect(plan.exchangeCount == 3)
        #expect(tag.ndefMessage == VirtualType4Tag.sampleURIMessage)
    }

    @Test("proprietary write access 80 counts as granted")
    func proprietaryAccess() throws {
        let tag = VirtualType4Tag(writeAccess: 0x80)
        let (t4, _) = T4.connect(tag)
        try t4.writeNDEF(VirtualType4Tag.sampleURIMessage)
        #expect(tag.ndefMessage == VirtualType4Tag.sampleURIMessage)
    }

    @Test("v2 message whose end B0/D6 cannot address: refused before the first UPDATE")
    func unreachable() {
        let tag = VirtualType4Tag(ndef: VirtualType4Tag.sampleURIMessage, maxSize: 40002)
        let (t4, plan) = T4.connect(tag)
        #expect(throws: TagError.self) { try t4.writeNDEF(VirtualType4Tag.sampleMessage(size: 40000)) }
        #expect(plan.log.allSatisfy { $0[1] != 0xD6 })
        #expect(tag.ndefMessage == VirtualType4Tag.sampleURIMessage)
    }

    // MARK: Tear safety

    /// Cuts the write after every k exchanges (and, separately, answers exchange k with an error
    /// status), re-presents the tag and reads: old message while NLEN = 0 has not been written,
    /// empty after that, the new one only once the write completed.
    func tear(tag: VirtualType4Tag, old: [UInt8], new: [UInt8], extendedLength: Bool = false) throws {
        let (t4, plan) = T4.connect(tag, extendedLength: extendedLength)
        try t4.writeNDEF(old)
        plan.reset()
        tag.activate()
        try T4.fresh(t4).writeNDEF(new)
        let total = plan.exchangeCount
        // The NLEN = 0 write is the first UPDATE BINARY.
        let nlenZero = try #require(plan.log.firstIndex { $0[1] == 0xD6 })
        for fault in [nil, InjectedFault.statusWord(0x65, 0x81)] {
            for k in 0...total {
                // Reset the tag to the old message.
                plan.reset()
                tag.activate()
                try T4.fresh(t4).writeNDEF(old)
                plan.reset(leaveFieldAfter: fault == nil ? k : nil, faults: fault.map { [k: $0] } ?? [:])
                tag.activate()
                do {
                    try T4.fresh(t4).writeNDEF(new)
                    #expect(k == total, "write survived a cut after \(k) of \(total) exchanges")
                } catch {
                    #expect(k < total)
                    #expect(error == (fault == nil ? .tagLost : .status(sw1: 0x65, sw2: 0x81)))
                }
                plan.reset()
                tag.activate()
                let read = try T4.fresh(t4).readNDEF()
                let expected = k <= nlenZero ? old : (k < total ? [] : new)
                #expect(read == expected, "cut after \(k) of \(total): read \(read.count) bytes, expected \(expected.count)")
            }
        }
    }

    @Test("tear at every exchange of a v2 multi-chunk write")
    func tearV2() throws {
        try tear(tag: VirtualType4Tag(), old: VirtualType4Tag.sampleMessage(size: 300), new: Self.message600)
    }

    @Test("tear at every exchange of a legacy v1 write")
    func tearV1() throws {
        try tear(tag: VirtualType4Tag(version: .v1), old: VirtualType4Tag.sampleURIMessage, new: Self.message600)
    }

    @Test("tear at every exchange of a v3 write beyond 7FFF (D7)")
    func tearV3() throws {
        let tag = VirtualType4Tag(version: .v3, maxResponseLength: 0x1000, maxCommandLength: 0x1000, maxSize: 40068)
        try tear(tag: tag, old: VirtualType4Tag.sampleMessage(size: 35000), new: VirtualType4Tag.sampleMessage(size: 40000),
                 extendedLength: true)
    }

    // MARK: Lock

    @Test("lock v2: UPDATE BINARY FF on CC offset 14, read back, then read-only")
    func lockV2() throws {
        let tag = VirtualType4Tag.smallMessage()
        let (t4, plan) = T4.connect(tag)
        try t4.writeLock()
        #expect(T4.lines(plan.log) == T4.lines([
            T4.selectApp, T4.selectCC, T4.readCC, T4.hex("00 D6 00 0E 01 FF"), T4.hex("00 B0 00 0E 01"),
        ]))
        #expect(tag.ccFile[14] == 0xFF)
        #expect(try t4.queryNDEFStatus().status == .readOnly)
        #expect(throws: TagError.readOnly) { try t4.writeNDEF(Self.message600) }
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleURIMessage)
    }

    @Test("lock v3: the write access byte is at offset 16")
    func lockV3() throws {
        let tag = VirtualType4Tag.smallMessage(version: .v3)
        let (t4, plan) = T4.connect(tag)
        try t4.writeLock()
        #expect(plan.log.suffix(2) == [T4.hex("00 D6 00 10 01 FF"), T4.hex("00 B0 00 10 01")])
        #expect(tag.ccFile[16] == 0xFF)
    }

    @Test("lock on a tag whose CC file is read-only: the status word is reported")
    func lockRefused() {
        let tag = VirtualType4Tag(ndef: VirtualType4Tag.sampleURIMessage, ccFileWritable: false)
        let (t4, _) = T4.connect(tag)
        #expect(throws: TagError.status(sw1: 0x69, sw2: 0x82)) { try t4.writeLock() }
        #expect(tag.ccFile[14] == 0x00)
    }

    @Test("lock on an already read-only tag sends no UPDATE")
    func lockAlreadyLocked() throws {
        let (t4, plan) = T4.connect(VirtualType4Tag.readOnly())
        try t4.writeLock()
        #expect(plan.exchangeCount == 3)
    }

    @Test("a tag that answers 90 00 but keeps the byte is not reported as locked")
    func lockIgnored() {
        let channel = Type4ScriptedTransceiver([
            T4.hex("90 00"), T4.hex("90 00"), T4.hex("00 0F 20 00 F6 00 F6 04 06 E1 04 08 00 00 00 90 00"),
            T4.hex("90 00"), T4.hex("00 90 00"),
        ])
        #expect(throws: TagError.self) { try Type4Tag(transceiver: channel).writeLock() }
    }
}
