import Testing
@testable import NFCTags
import TagEmulation

@Suite("Type 2 CC and TLV structure")
struct Type2LayoutTests {
    /// Walks the TLVs of an NTAG213-sized image whose data area starts with `tlvs`.
    func walk(_ tlvs: [UInt8], cc: String = "E1 10 12 00") throws(TagError) -> Type2Layout {
        var memory = [UInt8](repeating: 0, count: 180)
        memory.replaceSubrange(12 ..< 16, with: T2.hex(cc))
        memory.replaceSubrange(16 ..< 16 + tlvs.count, with: tlvs)
        let parsed = try Type2CapabilityContainer(bytes: Array(memory[12 ..< 16]))
        return try Type2Layout.walk(capabilityContainer: parsed) { address throws(TagError) in
            guard address < memory.count else { throw TagError.malformedReply("test image ends") }
            return memory[address]
        }
    }

    // MARK: CC

    @Test func capabilityContainerFields() throws {
        let cc = try Type2CapabilityContainer(bytes: T2.hex("E1 10 3E 0F"))
        #expect(cc.dataAreaByteCount == 496)
        #expect(cc.dataArea == 16 ..< 512)
        #expect(!cc.isWritable)
        #expect(try Type2CapabilityContainer(bytes: T2.hex("E1 11 12 00")).isWritable, "minor version 1.1 accepted")
        #expect(try !Type2CapabilityContainer(bytes: T2.hex("E1 10 12 03")).isWritable, "proprietary write access")
        #expect(cc.bytes == T2.hex("E1 10 3E 0F"))
    }

    @Test func capabilityContainerErrors() {
        #expect(throws: TagError.notNDEFFormatted("CC magic is 00, not E1")) { try Type2CapabilityContainer(bytes: [0, 0, 0, 0]) }
        #expect(throws: TagError.notNDEFFormatted("CC magic is E2, not E1")) { try Type2CapabilityContainer(bytes: T2.hex("E2 10 12 00")) }
        #expect(throws: TagError.notNDEFFormatted("NDEF mapping version 2.0 is not supported")) {
            try Type2CapabilityContainer(bytes: T2.hex("E1 20 12 00"))
        }
        #expect(throws: TagError.notNDEFFormatted("NDEF mapping version 0.9 is not supported")) {
            try Type2CapabilityContainer(bytes: T2.hex("E1 09 12 00"))
        }
        #expect(throws: TagError.invalidTagData("CC data area size is 0")) { try Type2CapabilityContainer(bytes: T2.hex("E1 10 00 00")) }
        #expect(throws: TagError.notNDEFFormatted("CC read access 8h does not grant reading")) {
            try Type2CapabilityContainer(bytes: T2.hex("E1 10 12 80"))
        }
        #expect(throws: TagError.invalidTagData("capability container has 3 bytes, not 4")) {
            try Type2CapabilityContainer(bytes: T2.hex("E1 10 12"))
        }
    }

    // MARK: TLVs

    @Test func ntag213FactoryLayout() throws {
        let layout = try walk(T2.hex("01 03 A0 0C 34 03 00 FE"))
        #expect(layout.lockAreas == [Type2LockArea(address: 160, bitCount: 12, bytesPerLockBit: 8)])
        #expect(layout.lockAreas[0].range == 160 ..< 162, "page 28h bytes 0-1, after the data area")
        #expect(layout.ndef == .init(typeAddress: 21, lengthAddresses: [22], valueStart: 23, length: 0))
        #expect(layout.capacity(at: layout.ndefAddress) == 137)
    }

    @Test func lockAndMemoryControlAreasInsideTheDataAreaAreSkipped() throws {
        // Lock Control: PP A0 (10 × 4 + 0 = byte 40), 16 bits = 2 bytes, BB 32 (2^2-byte pages, 8 bytes per bit)
        // Memory Control: PP F0 (15 × 4 = byte 60), 4 bytes reserved
        let message = T2.message(30)
        var tlvs = T2.hex("01 03 A0 10 32  02 03 F0 04 02  03 1E")      // bytes 16-27
        tlvs += message[0 ..< 12] + T2.hex("AA BB")                       // 28-39, reserved 40-41
        tlvs += message[12 ..< 30] + T2.hex("CC DD EE FF") + [0xFE]     // 42-59, reserved 60-63, FE at 64
        let layout = try walk(tlvs)
        #expect(layout.lockAreas.map(\.range) == [40 ..< 42])
        #expect(layout.reservedAreas.map(\.range) == [60 ..< 64])
        #expect(layout.ndef == .init(typeAddress: 26, lengthAddresses: [27], valueStart: 28, length: 30))
        #expect(try layout.addresses(from: 28, count: 30) == Array(28 ..< 40) + Array(42 ..< 60))
        #expect(layout.usableCount(from: 26) == 160 - 26 - 6)
        #expect(layout.capacity(at: 26) == 126)

        // The same image read through a tag object: the reserved bytes never reach the message.
        var image = try VirtualType2Tag(product: .ntag213, uid: T2.uid).memory
        image.replaceSubrange(16 ..< 16 + tlvs.count, with: tlvs)
        let tag = try VirtualType2Tag(product: .ntag213, memory: image)
        let t2 = Type2Tag(link: NativeType2Link(tag: tag))
        #expect(try t2.readNDEF() == message)

        // Writing a longer message keeps them and lays the message around them.
        let longer = T2.message(40, seed: 5)
        try t2.writeNDEF(longer)
        let m = tag.memory
        #expect(Array(m[40 ..< 42]) == T2.hex("AA BB"))
        #expect(Array(m[60 ..< 64]) == T2.hex("CC DD EE FF"))
        #expect(Array(m[26 ..< 28]) == T2.hex("03 28"))
        #expect(Array(m[28 ..< 40]) == Array(longer[0 ..< 12]))
        #expect(Array(m[42 ..< 60]) == Array(longer[12 ..< 30]))
        #expect(Array(m[64 ..< 75]) == Array(longer[30 ..< 40]) + [0xFE])
        #expect(try Type2Tag(link: NativeType2Link(tag: tag)).readNDEF() == longer)
    }

    @Test func controlTLVHeaderSplitByAReservedArea() throws {
        // Memory Control reserving bytes 22-23 (PP 16 with 16-byte pages: 1 × 16 + 6): the NDEF TLV's
        // type byte sits at 24 and its value skips nothing else.
        let layout = try walk(T2.hex("02 03 16 02 04  00  AA BB  03 02 D0 00 FE"))
        #expect(layout.reservedAreas.map(\.range) == [22 ..< 24])
        #expect(layout.ndef == .init(typeAddress: 24, lengthAddresses: [25], valueStart: 26, length: 2))
    }

    @Test func threeByteLength() throws {
        var memory = try VirtualType2Tag(product: .ntag215, uid: T2.uid, ndef: T2.message(300)).memory
        #expect(Array(memory[16 ..< 20]) == T2.hex("03 FF 01 2C"))
        let tag = Type2Tag(link: NativeType2Link(tag: try VirtualType2Tag(product: .ntag215, memory: memory)))
        #expect(try tag.readNDEF() == T2.message(300))
        // A 3-byte length below FFh is read too (relaxed), e.g. FF 00 05.
        memory.replaceSubrange(16 ..< 25, with: T2.hex("03 FF 00 05 01 02 03 04 05"))
        let relaxed = Type2Tag(link: NativeType2Link(tag: try VirtualType2Tag(product: .ntag215, memory: memory)))
        #expect(try relaxed.readNDEF() == T2.hex("01 02 03 04 05"))
    }

    @Test func nullTLVsAndProprietaryTLVsAreSkipped() throws {
        let layout = try walk(T2.hex("00 00 FD 02 AB CD 00 03 03 D0 00 00 FE"))
        #expect(layout.ndef == .init(typeAddress: 23, lengthAddresses: [24], valueStart: 25, length: 3))
    }

    @Test func missingTerminator() throws {
        // An NDEF TLV filling the data area to its last byte: no room for FE, none needed.
        let message = T2.message(137)
        let layout = try walk(T2.hex("01 03 A0 0C 34 03 89") + message)
        #expect(layout.ndef?.length == 137)
        #expect(try layout.addresses(from: 23, count: 137).last == 159)
        // No NDEF TLV and no terminator: the new TLV goes after the last control TLV.
        let empty = try walk(T2.hex("01 03 A0 0C 34"))
        #expect(empty.ndef == nil)
        #expect(empty.ndefAddress == 21)
        #expect(empty.capacity(at: empty.ndefAddress) == 137)
        // Proprietary data up to the end: no room at all.
        let full = try walk(T2.hex("FD FF 00 8C") + [UInt8](repeating: 0x11, count: 140) + [])
        #expect(full.ndef == nil)
        #expect(full.ndefAddress == nil)
        #expect(full.capacity(at: full.ndefAddress) == 0)
    }

    @Test func lengthsPastTheEnd() {
        let cases: [(String, [UInt8])] = [
            ("NDEF 1-byte", T2.hex("03 90")),                   // 144 bytes from byte 18
            ("NDEF 3-byte", T2.hex("03 FF FF FF")),
            ("NDEF after lock TLV", T2.hex("01 03 A0 0C 34 03 8A")), // 138 > 137
            ("proprietary", T2.hex("FD FF 01 00")),
            ("unknown type", T2.hex("42 FE")),
        ]
        for (name, tlvs) in cases {
            #expect(throws: TagError.self, "\(name)") { try walk(tlvs) }
            do {
                _ = try walk(tlvs)
            } catch {
                guard case .invalidTagData = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
            }
        }
    }

    @Test func tlvHeaderCutByTheEnd() throws {
        // CC size 1 (8 bytes, 16-23): a TLV type in the last byte has no length.
        #expect(throws: TagError.invalidTagData("TLV 03 at 23 has no length byte")) {
            try walk(T2.hex("00 00 00 00 00 00 00 03"), cc: "E1 10 01 00")
        }
        #expect(throws: TagError.invalidTagData("2 TLV bytes from 24 run past the data area end (24)")) {
            try walk(T2.hex("00 00 00 00 00 00 03 FF"), cc: "E1 10 01 00")
        }
    }

    @Test func badControlTLVs() {
        #expect(throws: TagError.invalidTagData("Lock Control TLV has length 2, not 3")) { try walk(T2.hex("01 02 A0 0C 03 00 FE")) }
        #expect(throws: TagError.invalidTagData("Memory Control TLV has length 4, not 3")) { try walk(T2.hex("02 04 A0 0C 34 00 03 00 FE")) }
        // reserves bytes 16-17: the TLV itself
        #expect(throws: TagError.invalidTagData("control TLV at 16 reserves bytes 16..<18 that overlap TLVs before it")) {
            try walk(T2.hex("02 03 10 02 04 03 00 FE"))
        }
        // reserves bytes in page 1 (the UID)
        #expect(throws: TagError.invalidTagData("control TLV at 16 names bytes 4..<6, outside the tag's pages 4-FFh")) {
            try walk(T2.hex("02 03 10 02 02 03 00 FE"))
        }
        // 15 × 2^15: far beyond any Type 2 page
        #expect(throws: TagError.self) { try walk(T2.hex("01 03 F0 08 FF 03 00 FE")) }
    }

    @Test func capacityAroundTheLengthFormatSwitch() throws {
        func capacity(dataAreaSize: UInt8) throws -> Int {
            let cc = Type2CapabilityContainer(version: 0x10, dataAreaSize: dataAreaSize, access: 0)
            let layout = Type2Layout(capabilityContainer: cc, ndefAddress: 16)
            return layout.capacity(at: 16)
        }
        #expect(try capacity(dataAreaSize: 0x06) == 46)     // 48 bytes: 1-byte length
        #expect(try capacity(dataAreaSize: 0x20) == 254)    // 256 bytes: 254 with 1-byte, 252 with 3-byte
        #expect(try capacity(dataAreaSize: 0x21) == 260)    // 264 bytes: 3-byte length
        #expect(try capacity(dataAreaSize: 0x3E) == 492)
        #expect(try capacity(dataAreaSize: 0x6D) == 868)
    }

    @Test func dataAreaBeyondPageFF() {
        #expect(throws: TagError.unsupported("a data area of 1872 bytes reaches beyond page FFh (sectors)")) {
            _ = try Type2Layout.walk(capabilityContainer: Type2CapabilityContainer(version: 0x10, dataAreaSize: 0xEA, access: 0)) { _ in 0 }
        }
    }

    @Test func lockAreaDecoding() throws {
        let ntag = try Type2LockArea(lockControl: T2.hex("A0 0C 34"))
        #expect(ntag == Type2LockArea(address: 160, bitCount: 12, bytesPerLockBit: 8))
        #expect(ntag.lockedBytes == T2.hex("FF 0F"))
        let ulc = try Type2LockArea(lockControl: T2.hex("A0 10 44"))
        #expect(ulc.lockedBytes == T2.hex("FF FF"))
        #expect(try Type2LockArea(lockControl: T2.hex("00 00 00")).byteCount == 32, "SS 0 = 256 bits")
        #expect(try Type2LockArea(memoryControl: T2.hex("F0 04 02")).range == 60 ..< 64)
        #expect(Type2LockArea.nfcForumDefault(dataArea: 16 ..< 160) == Type2LockArea(address: 160, bitCount: 12, bytesPerLockBit: 8))
        #expect(Type2LockArea.nfcForumDefault(dataArea: 16 ..< 64) == nil)
    }
}
