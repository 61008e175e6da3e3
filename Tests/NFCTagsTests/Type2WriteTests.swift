import Testing
import NFCTags
import TagEmulation

@Suite("Type2Tag: tear-safe NDEF writes")
struct Type2WriteTests {
    typealias Op = T2.Op

    /// The NDEF TLV bytes for `message` (1- or 3-byte length, FE when it fits in `room`).
    static func tlv(_ message: [UInt8], room: Int) -> [UInt8] {
        let n = message.count
        var out: [UInt8] = [0x03] + (n < 0xFF ? [UInt8(n)] : [0xFF, UInt8(n >> 8), UInt8(n & 0xFF)]) + message
        if out.count < room { out.append(0xFE) }
        return out
    }

    /// Where the NDEF TLV of a factory-formatted chip starts, and the room from there to the data area end.
    static func ndefStart(_ product: Type2Product) -> (address: Int, room: Int) {
        switch product {
        case .ntag213: return (21, 139)
        case .ntag215: return (16, 496)
        default: return (16, 872)
        }
    }

    /// The spec's order: commit page (L0 = 00) first, other changed pages ascending, commit page last.
    static func expectedWrites(initial: [UInt8], final: [UInt8], commitAddress: Int) -> [Op] {
        var staging = final
        staging[commitAddress] = 0x00
        let commitPage = commitAddress / 4
        var ops: [Op] = []
        if T2.page(staging, commitPage) != T2.page(initial, commitPage) { ops.append(.write(commitPage, T2.page(staging, commitPage))) }
        for p in 0 ..< final.count / 4 where p != commitPage && T2.page(final, p) != T2.page(initial, p) {
            ops.append(.write(p, T2.page(final, p)))
        }
        if T2.page(final, commitPage) != T2.page(staging, commitPage) { ops.append(.write(commitPage, T2.page(final, commitPage))) }
        return ops
    }

    /// Reads a write of `message` to a factory tag needs before writing, per profile.
    static func reads(_ product: Type2Product, messageLength n: Int, _ profile: PCSCReaderProfile) -> [Op] {
        let (start, _) = ndefStart(product)
        let lastPage = (start + (n < 0xFF ? 2 : 4) + n) / 4 // the FE (or last message byte) page
        let lastDataPage = product == .ntag213 ? 39 : (product == .ntag215 ? 127 : 221)
        let last = min(lastPage, lastDataPage)
        // Readers with a raw path (ACR122U direct transmit, Part 3 transparent exchange) use FAST_READ.
        switch profile.rawCommandPath != .none ? .acr122u : profile.family {
        case .acr122u:
            var ops: [Op] = [.getVersion, .fastRead(3, product == .ntag213 ? 39 : 62)]
            var first = product == .ntag213 ? 40 : 63
            while first <= last {
                ops.append(.fastRead(first, min(first + 59, last)))
                first += 60
            }
            return ops
        case .identiv:
            return (3 ... last).map { Op.read($0) }
        default:
            return stride(from: 3, through: last, by: 4).map { Op.read($0) }
        }
    }

    static let cases: [(Type2Product, Int)] = [
        (.ntag213, 20), (.ntag213, 137), (.ntag215, 20), (.ntag215, 492), (.ntag216, 20), (.ntag216, 868),
    ]

    @Test(arguments: 0 ..< 6)
    func exactSequencesFromFactoryState(index: Int) throws {
        let (product, size) = Self.cases[index]
        let message = T2.message(size)
        for profile in [PCSCReaderProfile.acr122u, .identiv, .generic] {
            let rig = try T2.rig(product, profile)
            let initial = rig.tag.memory
            let (start, room) = Self.ndefStart(product)
            let final = T2.image(initial, Self.tlv(message, room: room), at: start)
            try rig.type2Tag().writeNDEF(message)
            #expect(rig.tag.memory == final, "\(product) \(size) via \(profile): byte-exact image")
            let ops = Self.reads(product, messageLength: size, profile)
                + Self.expectedWrites(initial: initial, final: final, commitAddress: start + 1)
            #expect(rig.plan.log == T2.apdus(ops, profile), "\(product) \(size) via \(profile)")
            #expect(try rig.type2Tag().readNDEF() == message)
        }
    }

    @Test func literalSequenceSmallMessageOnNTAG213() throws {
        let rig = T2.rig(VirtualType2Tag.blankNTAG213(), .generic)
        try rig.type2Tag().writeNDEF(T2.hex("D1 01 05 55 04 61 2E 63 68")) // https://a.ch
        #expect(rig.plan.log == [
            T2.hex("FF B0 00 03 10"),              // CC and TLVs (pages 3-6)
            T2.hex("FF B0 00 07 10"),              // the rest of the pages the new TLV touches
            T2.hex("FF D6 00 05 04 34 03 00 D1"),  // 1. length 0 (and the first message byte)
            T2.hex("FF D6 00 06 04 01 05 55 04"),  // 2. the message ...
            T2.hex("FF D6 00 07 04 61 2E 63 68"),
            T2.hex("FF D6 00 08 04 FE 00 00 00"),  //    ... and the terminator
            T2.hex("FF D6 00 05 04 34 03 09 D1"),  // 3. the real length
        ])
    }

    @Test func oneToThreeByteLengthSwitch() throws {
        let old = T2.message(254)
        let new = T2.message(255, seed: 1)
        let rig = try T2.rig(.ntag215, ndef: old, .generic)
        try rig.type2Tag().writeNDEF(new)
        let writes = rig.plan.log.filter { $0[1] == 0xD6 }
        #expect(writes.first == T2.hex("FF D6 00 04 04 03 00 00 FF"), "L0 = 00 while FF hi lo's tail is written")
        #expect(writes.last == T2.hex("FF D6 00 04 04 03 FF 00 FF"), "L0 = FF commits 255")
        #expect(try rig.type2Tag().readNDEF() == new)

        try rig.type2Tag().writeNDEF(old)
        let back = rig.plan.log.filter { $0[1] == 0xD6 }.suffix(from: writes.count)
        #expect(back.first == T2.hex("FF D6 00 04 04 03 00") + [old[0], old[1]])
        #expect(back.last == T2.hex("FF D6 00 04 04 03 FE") + [old[0], old[1]])
        #expect(try rig.type2Tag().readNDEF() == old)
    }

    @Test func onlyChangedPagesAreWritten() throws {
        let message = T2.message(100)
        let rig = try T2.rig(.ntag215, ndef: message, .generic)
        var changed = message
        changed[60] ^= 0xFF // page (16 + 2 + 60) / 4 = 19
        try rig.type2Tag().writeNDEF(changed)
        let writes = rig.plan.log.filter { $0[1] == 0xD6 }.map { $0[3] }
        #expect(writes == [4, 19, 4])
        rig.plan.reset()
        try rig.type2Tag().writeNDEF(changed)
        #expect(rig.plan.log.allSatisfy { $0[1] != 0xD6 }, "the same message again writes nothing")
    }

    @Test func writeToEmptyAndFromEmpty() throws {
        let rig = try T2.rig(.ntag213, ndef: T2.message(50), .acr122u)
        try rig.type2Tag().writeNDEF([])
        #expect(rig.tag.pages(5 ..< 6) == T2.hex("34 03 00 FE"))
        #expect(try rig.type2Tag().readNDEF() == [])
        try rig.type2Tag().writeNDEF(T2.message(3))
        let expected: [UInt8] = T2.hex("34 03 03") + T2.message(3) + T2.hex("FE")
        #expect(Array(rig.tag.pages(5 ..< 7).prefix(7)) == expected)
    }

    @Test func readOnlyTagsRefuseWrites() throws {
        var memory = try VirtualType2Tag(product: .ntag213, uid: T2.uid, ndef: T2.message(10)).memory
        memory[15] = 0x0F
        let rig = T2.rig(try VirtualType2Tag(product: .ntag213, memory: memory), .generic)
        #expect(throws: TagError.readOnly) { try rig.type2Tag().writeNDEF(T2.message(5)) }
        #expect(rig.plan.log.allSatisfy { $0[1] != 0xD6 })
        #expect(try rig.type2Tag().readNDEF() == T2.message(10))
        #expect(try rig.type2Tag().queryNDEFStatus().status == .readOnly)
    }

    @Test func messageTooLarge() throws {
        for (product, capacity) in [(Type2Product.ntag213, 137), (.ntag215, 492), (.ntag216, 868)] {
            let rig = try T2.rig(product, .acr122u)
            #expect(try rig.type2Tag().capacity == capacity)
            #expect(throws: TagError.messageTooLarge(size: capacity + 1, capacity: capacity)) {
                try rig.type2Tag().writeNDEF(T2.message(capacity + 1))
            }
            #expect(rig.plan.log.allSatisfy { $0[1] != 0xD6 }, "nothing written")
        }
    }

    @Test func newTLVWhereTypeAndLengthStraddlePages() throws {
        // A proprietary TLV up to byte 18, terminator at 19: the new 03 goes to 19 (page 4), its
        // length to 20 (page 5).
        var memory = VirtualType2Tag.blankNTAG215().memory
        memory.replaceSubrange(16 ..< 20, with: T2.hex("FD 01 AA FE"))
        let rig = T2.rig(try VirtualType2Tag(product: .ntag215, memory: memory), .generic)
        try rig.type2Tag().writeNDEF(T2.hex("D0 00 00"))
        #expect(rig.plan.log == [
            T2.hex("FF B0 00 03 10"),
            T2.hex("FF D6 00 05 04 00 D0 00 00"), // length 00 goes in before the 03 exists
            T2.hex("FF D6 00 04 04 FD 01 AA 03"),
            T2.hex("FF D6 00 06 04 FE 00 00 00"),
            T2.hex("FF D6 00 05 04 03 D0 00 00"),
        ])
        #expect(try rig.type2Tag().readNDEF() == T2.hex("D0 00 00"))
    }

    @Test func refusedPageSurfacesAsStatus() throws {
        let rig = try T2.rig(.ntag213, ndef: T2.message(10), .generic)
        _ = rig.tag.respond(to: T2.hex("A2 02 00 00 00 01")) // static lock bit for page 8
        #expect(throws: TagError.status(sw1: 0x63, sw2: 0x00)) { try rig.type2Tag().writeNDEF(T2.message(30, seed: 3)) }
        rig.putBack()
        #expect(try rig.type2Tag().readNDEF() == [], "stopped after the length went to 0: empty, not corrupt")
    }
}
