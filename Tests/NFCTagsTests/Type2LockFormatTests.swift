import Testing
import NFCTags
import TagEmulation

@Suite("Type2Tag: lock and format")
struct Type2LockFormatTests {
    @Test func lockNTAG213ExactSequence() throws {
        let message = T2.message(30)
        let rig = try T2.rig(.ntag213, ndef: message, .generic)
        try rig.type2Tag().writeLock()
        #expect(rig.plan.log == [
            T2.hex("FF B0 00 03 10"),               // CC + TLVs (lock control A0 0C 34)
            T2.hex("FF B0 00 02 10"),               // static lock bytes
            T2.hex("FF B0 00 28 10"),               // dynamic lock bytes (page 28h)
            T2.hex("FF D6 00 03 04 E1 10 12 0F"),   // 1. CC: read-only
            T2.hex("FF D6 00 02 04 40 48 FF FF"),   // 2. static lock bits
            T2.hex("FF D6 00 28 04 FF 0F 00 BD"),   // 3. 12 dynamic lock bits
        ])
        #expect(rig.tag.pages(2 ..< 4) == T2.hex("40 48 FF FF  E1 10 12 0F"))
        #expect(rig.tag.pages(0x28 ..< 0x29) == T2.hex("FF 0F 00 BD"))
        #expect(try rig.type2Tag().queryNDEFStatus() == (.readOnly, 137))
        #expect(try rig.type2Tag().readNDEF() == message)
        #expect(throws: TagError.readOnly) { try rig.type2Tag().writeNDEF([]) }
        // The chip itself now refuses every user page.
        for page in [4, 15, 16, 39] {
            rig.tag.activate()
            #expect(rig.tag.respond(to: [0xA2, UInt8(page), 0, 0, 0, 0]) == [0x00], "page \(page)")
        }
    }

    @Test func lockUsesTheProductPositionWithoutLockControlTLV() throws {
        let rig = try T2.rig(.ntag215, ndef: T2.message(10), .acr122u)
        try rig.type2Tag().writeLock()
        #expect(rig.tag.pages(0x82 ..< 0x83) == T2.hex("FF 00 00 BD"), "NTAG215: 8 bits at page 82h")
        #expect(rig.plan.log.suffix(3) == [
            T2.hex("FF D6 00 03 04 E1 10 3E 0F"),
            T2.hex("FF D6 00 02 04 40 48 FF FF"),
            T2.hex("FF D6 00 82 04 FF 00 00 BD"),
        ])
        let rig216 = try T2.rig(.ntag216, ndef: T2.message(10), .identiv)
        try rig216.type2Tag().writeLock()
        #expect(rig216.tag.pages(0xE2 ..< 0xE3) == T2.hex("FF 3F 00 BD"), "NTAG216: 14 bits at page E2h")
        let ul = try T2.rig(.ultralight, ndef: T2.message(10), .generic)
        try ul.type2Tag().writeLock()
        #expect(ul.plan.log.filter { $0[1] == 0xD6 }.map { $0[3] } == [3, 2], "48-byte Ultralight: static bits only")
    }

    @Test func lockIsIdempotentAndCompletesATornLock() throws {
        let message = T2.message(40)
        let clean = try T2.rig(.ntag213, ndef: message, .generic)
        try clean.type2Tag().writeLock()
        let locked = clean.tag.memory
        let total = clean.plan.exchangeCount
        clean.plan.reset()
        try clean.type2Tag().writeLock()
        #expect(clean.plan.log.allSatisfy { $0[1] != 0xD6 }, "nothing left to write")

        for k in 0 ..< total {
            let rig = try T2.rig(.ntag213, ndef: message, .generic)
            rig.plan.reset(leaveFieldAfter: k)
            #expect(throws: TagError.tagLost) { try rig.type2Tag().writeLock() }
            rig.putBack()
            let tag = rig.type2Tag()
            #expect(try tag.readNDEF() == message, "a torn lock never touches the message")
            let status = try tag.queryNDEFStatus().status
            let ccWritten = rig.tag.pages(3 ..< 4) == T2.hex("E1 10 12 0F")
            #expect(status == (ccWritten ? .readOnly : .readWrite))
            if !ccWritten {
                #expect(rig.tag.pages(2 ..< 3) == T2.hex("40 48 00 00"), "no page locked while the CC says writable")
            }
            try rig.type2Tag().writeLock()
            #expect(rig.tag.memory == locked, "locking again completes it (tear after \(k))")
        }
    }

    @Test func formatBlankUltralight() throws {
        let rig = try T2.rig(.ultralight, .generic)
        let tag = rig.type2Tag()
        #expect(throws: TagError.unsupported("the tag's product is unknown: name it to format")) { try tag.format() }
        rig.plan.reset()
        try rig.type2Tag().format(as: .ultralight)
        #expect(rig.plan.log == [
            T2.hex("FF B0 00 03 10"),
            T2.hex("FF D6 00 04 04 03 00 FE 00"),
            T2.hex("FF D6 00 03 04 E1 10 06 00"),  // the CC last
        ])
        #expect(try rig.type2Tag().queryNDEFStatus() == (.readWrite, 46))
        #expect(try rig.type2Tag().readNDEF() == [])
    }

    @Test func formatUltralightCThroughACR122U() throws {
        let rig = try T2.rig(.ultralightC, .acr122u)
        try rig.type2Tag().format(as: .ultralightC)
        #expect(rig.plan.log == T2.apdus([
            .getVersion, .reselect, .read(3),
            .write(4, T2.hex("01 03 A0 10")), .write(5, T2.hex("44 03 00 FE")), .write(3, T2.hex("E1 10 12 00")),
        ], .acr122u))
        let info = try rig.type2Tag().inspect()
        #expect(info.product == .ultralightC)
        #expect(info.capacity == 137)
    }

    @Test func formatEV1FromGetVersion() throws {
        let rig = try T2.rig(.ultralightEV1MF0UL21, .acr122u)
        try rig.type2Tag().format()
        #expect(rig.plan.log == T2.apdus([
            .getVersion, .fastRead(3, 4), .write(4, T2.hex("03 00 FE 00")), .write(3, T2.hex("E1 10 10 00")),
        ], .acr122u))
        let message = T2.message(100)
        try rig.type2Tag().writeNDEF(message)
        #expect(try rig.type2Tag().readNDEF() == message)
        #expect(try rig.type2Tag().capacity == 126)
    }

    @Test func formatRefusals() throws {
        let formatted = T2.rig(VirtualType2Tag.blankNTAG213(), .acr122u)
        #expect(throws: TagError.unsupported("the tag is already NDEF formatted: write an empty message instead")) {
            try formatted.type2Tag().format()
        }
        #expect(throws: TagError.unsupported("the tag answers as NTAG213, not NTAG215")) {
            try formatted.type2Tag().format(as: .ntag215)
        }
        var memory = try VirtualType2Tag(product: .ultralight, uid: T2.uid).memory
        memory[12] = 0x12
        let odd = T2.rig(try VirtualType2Tag(product: .ultralight, memory: memory), .generic)
        #expect(throws: TagError.unsupported("the CC is 12 00 00 00, not blank; it is one-time programmable")) {
            try odd.type2Tag().format(as: .ultralight)
        }
        #expect(odd.plan.log.allSatisfy { $0[1] != 0xD6 })
    }

    @Test func tornFormatLeavesBlankOrFormatted() throws {
        let clean = try T2.rig(.ultralightC, .generic)
        try clean.type2Tag().format(as: .ultralightC)
        for k in 0 ..< clean.plan.exchangeCount {
            let rig = try T2.rig(.ultralightC, .generic)
            rig.plan.reset(leaveFieldAfter: k)
            #expect(throws: TagError.tagLost) { try rig.type2Tag().format(as: .ultralightC) }
            rig.putBack()
            #expect(throws: TagError.notNDEFFormatted("CC magic is 00, not E1"), "tear after \(k)") { try rig.type2Tag().readNDEF() }
        }
        #expect(try clean.type2Tag().readNDEF() == [])
    }
}
