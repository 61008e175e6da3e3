import Testing
import NFCTags
import TagEmulation

@Suite("VirtualType2Tag: the emulated chips")
struct Type2VirtualTagTests {
    @Test func ntag213FactoryImage() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        let m = tag.memory
        #expect(m.count == 180)
        // UID0-2 BCC0 (88^04^5A^2C = FA) | UID3-6 | BCC1 (91^6E^3F^80 = 40) 48 lock lock | CC | TLVs
        #expect(Array(m[0 ..< 24]) == T2.hex("04 5A 2C FA  91 6E 3F 80  40 48 00 00  E1 10 12 00  01 03 A0 0C  34 03 00 FE"))
        #expect(Array(m[24 ..< 160]) == [UInt8](repeating: 0, count: 136))
        // dynamic lock, CFG0, CFG1, PWD, PACK (pages 28h-2Ch)
        #expect(Array(m[160 ..< 180]) == T2.hex("00 00 00 BD  04 00 00 FF  00 05 00 00  FF FF FF FF  00 00 00 00"))
        #expect(tag.uid == T2.uid)
        #expect(tag.atqa == [0x00, 0x44])
        #expect(tag.sak == 0x00)
        #expect(tag.ats == nil)
    }

    @Test(arguments: [
        (Type2Product.ntag215, 135, "E1 10 3E 00", 0x82),
        (.ntag216, 231, "E1 10 6D 00", 0xE2),
    ])
    func ntag215And216FactoryImages(product: Type2Product, pages: Int, cc: String, lockPage: Int) throws {
        let m = try VirtualType2Tag(product: product, uid: T2.uid).memory
        #expect(m.count == pages * 4)
        #expect(Array(m[12 ..< 20]) == T2.hex(cc + " 03 00 FE 00"))
        #expect(Array(m[lockPage * 4 ..< pages * 4]) == T2.hex("00 00 00 BD  04 00 00 FF  00 05 00 00  FF FF FF FF  00 00 00 00"))
    }

    @Test(arguments: [
        (Type2Product.ultralight, 16), (.ultralightC, 48), (.ultralightEV1MF0UL11, 20), (.ultralightEV1MF0UL21, 41),
    ])
    func ultralightsShipBlank(product: Type2Product, pages: Int) throws {
        let m = try VirtualType2Tag(product: product, uid: T2.uid).memory
        #expect(m.count == pages * 4)
        #expect(Array(m[12 ..< 16]) == [0, 0, 0, 0])
    }

    @Test func getVersionPerProduct() throws {
        let expected: [(Type2Product, String?)] = [
            (.ntag213, "00 04 04 02 01 00 0F 03"), (.ntag215, "00 04 04 02 01 00 11 03"),
            (.ntag216, "00 04 04 02 01 00 13 03"), (.ultralightEV1MF0UL11, "00 04 03 01 01 00 0B 03"),
            (.ultralightEV1MF0UL21, "00 04 03 01 01 00 0E 03"), (.ultralight, nil), (.ultralightC, nil),
        ]
        for (product, version) in expected {
            let tag = try VirtualType2Tag(product: product, uid: T2.uid)
            #expect(tag.respond(to: [0x60]) == version.map { T2.hex($0) }, "\(product)")
            #expect(tag.isMuted == (version == nil), "\(product): no GET_VERSION → mute")
        }
    }

    @Test func readWrapsAroundAndHidesPassword() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        // pages 2Bh (PWD, reads 00), 2Ch (PACK), then 00h, 01h
        #expect(tag.respond(to: [0x30, 0x2B]) == T2.hex("00 00 00 00  00 00 00 00  04 5A 2C FA  91 6E 3F 80"))
        #expect(tag.respond(to: [0x30, 0x2D]) == [0x00], "beyond the last page: NAK")
        #expect(tag.isMuted)
        #expect(tag.respond(to: [0x30, 0x00]) == nil, "mute until re-activated")
        tag.activate()
        #expect(tag.respond(to: [0x30, 0x03]) == T2.hex("E1 10 12 00  01 03 A0 0C  34 03 00 FE  00 00 00 00"))
    }

    @Test func ultralightCHidesItsKey() throws {
        let tag = try VirtualType2Tag(product: .ultralightC, uid: T2.uid)
        #expect(tag.respond(to: [0x30, 0x2C]) == [0x00])
        tag.activate()
        #expect(tag.respond(to: [0x30, 0x2A])?.suffix(8) == T2.hex("04 5A 2C FA 91 6E 3F 80"), "wraps before the key pages")
    }

    @Test func fastReadRangeChecks() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        #expect(tag.respond(to: [0x3A, 0x03, 0x05]) == T2.hex("E1 10 12 00  01 03 A0 0C  34 03 00 FE"))
        #expect(tag.respond(to: [0x3A, 0x2C, 0x2C]) == [0, 0, 0, 0])
        #expect(tag.respond(to: [0x3A, 0x2A, 0x2D]) == [0x00])
        tag.activate()
        #expect(tag.respond(to: [0x3A, 0x05, 0x04]) == [0x00], "start after end: NAK")
        let ul = try VirtualType2Tag(product: .ultralight, uid: T2.uid)
        #expect(ul.respond(to: [0x3A, 0x00, 0x03]) == nil, "Ultralight has no FAST_READ")
        #expect(ul.isMuted)
    }

    @Test func writeAcksAndRefuses() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        #expect(tag.respond(to: T2.hex("A2 04 DE AD BE EF")) == [0x0A])
        #expect(T2.page(tag.memory, 4) == T2.hex("DE AD BE EF"))
        #expect(tag.respond(to: T2.hex("A2 00 00 00 00 00")) == [0x00], "UID page")
        tag.activate()
        #expect(tag.respond(to: T2.hex("A2 2D 00 00 00 00")) == [0x00], "beyond memory")
        tag.activate()
        #expect(tag.respond(to: T2.hex("A2 04 00")) == nil, "malformed frame")
        #expect(tag.isMuted)
    }

    @Test func ccIsOneTimeProgrammable() throws {
        let tag = try VirtualType2Tag(product: .ultralight, uid: T2.uid)
        #expect(tag.respond(to: T2.hex("A2 03 E1 10 06 00")) == [0x0A])
        #expect(tag.respond(to: T2.hex("A2 03 00 00 00 0F")) == [0x0A])
        #expect(T2.page(tag.memory, 3) == T2.hex("E1 10 06 0F"), "bits OR, never clear")
    }

    @Test func staticLockBitsRefuseWrites() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        // lock page 4 (byte 10 bit 4) and page 8 (byte 11 bit 0); bytes 8-9 of the frame are ignored
        #expect(tag.respond(to: T2.hex("A2 02 FF FF 10 01")) == [0x0A])
        #expect(T2.page(tag.memory, 2) == T2.hex("40 48 10 01"))
        #expect(tag.respond(to: T2.hex("A2 05 11 22 33 44")) == [0x0A])
        #expect(tag.respond(to: T2.hex("A2 04 11 22 33 44")) == [0x00])
        tag.activate()
        #expect(tag.respond(to: T2.hex("A2 08 11 22 33 44")) == [0x00])
        tag.activate()
        // block-lock bit BL 9-4 (byte 10 bit 1) freezes L4-L9: setting L5 afterwards has no effect
        #expect(tag.respond(to: T2.hex("A2 02 00 00 02 00")) == [0x0A])
        #expect(tag.respond(to: T2.hex("A2 02 00 00 20 00")) == [0x0A])
        #expect(T2.page(tag.memory, 2) == T2.hex("40 48 12 01"))
        #expect(tag.respond(to: T2.hex("A2 05 55 66 77 88")) == [0x0A])
    }

    @Test func dynamicLockBitsRefuseWrites() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        // NTAG213: bit 0 of page 28h byte 0 locks pages 10h-11h (8 bytes per bit)
        #expect(tag.respond(to: T2.hex("A2 28 01 00 00 00")) == [0x0A])
        #expect(T2.page(tag.memory, 0x28) == T2.hex("01 00 00 BD"), "OR-ed")
        #expect(tag.respond(to: T2.hex("A2 12 01 02 03 04")) == [0x0A])
        #expect(tag.respond(to: T2.hex("A2 11 01 02 03 04")) == [0x00])
        tag.activate()
        #expect(tag.respond(to: T2.hex("A2 10 01 02 03 04")) == [0x00])
    }

    @Test func ultralightEdges() throws {
        let ul = try VirtualType2Tag(product: .ultralight, uid: T2.uid)
        #expect(ul.respond(to: T2.hex("A2 0F 01 02 03 04")) == [0x0A], "last user page")
        #expect(ul.respond(to: T2.hex("A2 10 01 02 03 04")) == [0x00], "beyond its 16 pages")
        ul.activate()
        #expect(ul.respond(to: [0x30, 0x0E]) == T2.hex("00 00 00 00  01 02 03 04  04 5A 2C FA  91 6E 3F 80"))
        #expect(ul.pages(14 ..< 400).count == 8)
        #expect(ul.pages(300 ..< 301).isEmpty)
        #expect(ul.pages(-2 ..< 1).count == 4)
    }

    @Test func unsupportedCommandsMute() throws {
        for frame in [T2.hex("1A 00"), T2.hex("50 00"), T2.hex("FF"), T2.hex("30")] {
            let tag = try VirtualType2Tag(product: .ntag215, uid: T2.uid)
            #expect(tag.respond(to: frame) == nil)
            #expect(tag.respond(to: [0x30, 0x00]) == nil)
            tag.activate()
            #expect(tag.respond(to: [0x30, 0x00])?.count == 16)
        }
    }

    @Test func imageRoundTrip() throws {
        let tag = try VirtualType2Tag(product: .ntag216, uid: T2.uid, ndef: T2.message(300))
        let copy = try VirtualType2Tag(product: .ntag216, memory: tag.memory)
        #expect(copy.memory == tag.memory)
        #expect(copy.uid == T2.uid)
        #expect(throws: TagError.invalidTagData("a NTAG216 image has 924 bytes, not 180")) {
            try VirtualType2Tag(product: .ntag216, memory: [UInt8](repeating: 0, count: 180))
        }
        #expect(throws: TagError.self) { try VirtualType2Tag(product: .unknown, memory: []) }
        #expect(throws: TagError.self) { try VirtualType2Tag(product: .ntag213, uid: [0x04]) }
    }

    @Test func ndefInitializerLayouts() throws {
        let small = try VirtualType2Tag(product: .ntag213, uid: T2.uid, ndef: T2.hex("D1 01 01 55 00"))
        #expect(small.pages(3 ..< 8) == T2.hex("E1 10 12 00  01 03 A0 0C  34 03 05 D1  01 01 55 00  FE 00 00 00"))
        let long = try VirtualType2Tag(product: .ntag215, uid: T2.uid, ndef: T2.message(300))
        #expect(long.pages(4 ..< 5) == T2.hex("03 FF 01 2C"))
        let blankUL = try VirtualType2Tag(product: .ultralight, uid: T2.uid, ndef: [])
        #expect(blankUL.pages(3 ..< 5) == T2.hex("E1 10 06 00  03 00 FE 00"))
        #expect(throws: TagError.messageTooLarge(size: 138, capacity: 137)) {
            try VirtualType2Tag(product: .ntag213, uid: T2.uid, ndef: T2.message(138))
        }
    }

    @Test func zebraPresetIsOneShortURIRecord() {
        let tag = VirtualType2Tag.zebraZQ320()
        let url = "zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0"
        let record = T2.hex("D1 01 61 55 01") + Array(url.utf8)
        #expect(url.utf8.count == 96)
        // lock control TLV, NDEF TLV of 0x65 bytes, the record, terminator
        let expected = T2.hex("01 03 A0 0C 34 03 65") + record + [0xFE]
        #expect(tag.pages(4 ..< 4 + (expected.count + 3) / 4).prefix(expected.count) == expected[...])
        #expect(tag.product == .ntag213)
        #expect(T2.page(tag.memory, 3) == T2.hex("E1 10 12 00"))
    }

    @Test func blankPresets() {
        #expect(VirtualType2Tag.blankNTAG213().pages(3 ..< 6) == T2.hex("E1 10 12 00  01 03 A0 0C  34 03 00 FE"))
        #expect(VirtualType2Tag.blankNTAG215().pages(3 ..< 5) == T2.hex("E1 10 3E 00  03 00 FE 00"))
        #expect(VirtualType2Tag.blankNTAG216().pages(3 ..< 5) == T2.hex("E1 10 6D 00  03 00 FE 00"))
        #expect(VirtualType2Tag.blankNTAG216().memory.count == 924)
    }
}
