import Foundation
import NFCTags
import Testing

/// MIFARE Classic's layout, access bits, MAD and NDEF area (NXP MF1S50/MF1S70, AN10787, AN1305),
/// from the bytes published dumps of NDEF-formatted cards hold.
@Suite("MIFARE Classic layout, access bits, MAD, NDEF area")
struct MifareClassicLayoutTests {
    static func hex(_ text: String) -> [UInt8] { T2.hex(text) }
    /// Sector 0 of an NDEF-formatted 1K as NXP's tools (and Android) write it: MAD1 with every
    /// sector 03 E1, info byte 01, CRC 14; trailer key A A0…A5, access bits 78 77 88, GPB C1.
    static let mad1 = hex("14 01 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1") + hex("03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1 03 E1")

    @Test("geometry: 1K 16×4 blocks, 4K 32×4 then 8×16, Mini 5×4; SAK 08/18/09")
    func geometry() {
        #expect(MifareClassicLayout.classic1K.blockCount == 64)
        #expect(MifareClassicLayout.classic4K.blockCount == 256)
        #expect(MifareClassicLayout.mini.blockCount == 20)
        #expect(MifareClassicLayout.classic4K.firstBlock(ofSector: 32) == 128 && MifareClassicLayout.classic4K.trailer(ofSector: 39) == 255)
        #expect(MifareClassicLayout.classic4K.sector(ofBlock: 143) == 32 && MifareClassicLayout.classic4K.sector(ofBlock: 144) == 33)
        #expect(MifareClassicLayout.classic1K.sector(ofBlock: 64) == nil)
        #expect(MifareClassicLayout.classic1K.dataBlocks(ofSector: 0) == 1..<3)
        #expect(MifareClassicLayout(sak: 0x08) == .classic1K && MifareClassicLayout(sak: 0x18) == .classic4K)
        #expect(MifareClassicLayout(sak: 0x09) == .mini && MifareClassicLayout(sak: 0x00) == nil)
    }

    @Test("access bits: transport FF 07 80, AN1305's 7F 07 88, 07 8F 0F and 78 77 88 decode and encode; copies that disagree are refused")
    func accessBits() throws {
        #expect(try MifareClassicAccessBits(bytes: Self.hex("FF 07 80")).conditions == [0, 0, 0, 0b001])
        #expect(MifareClassicAccessBits.ndefReadWrite.bytes == Self.hex("7F 07 88"))
        #expect(MifareClassicAccessBits.ndefReadOnly.bytes == Self.hex("07 8F 0F"))
        #expect(MifareClassicAccessBits.madReadWrite.bytes == Self.hex("78 77 88"))
        for bytes in ["7F 07 88", "07 8F 0F", "78 77 88", "FF 07 80"].map(Self.hex) {
            #expect(try MifareClassicAccessBits(bytes: bytes).bytes == bytes)
        }
        let readOnly = MifareClassicAccessBits.ndefReadOnly
        #expect(readOnly.keyAReads(group: 0) && !readOnly.keyAWrites(group: 0) && !readOnly.keyBWrites(group: 0))
        #expect(MifareClassicAccessBits.madReadWrite.keyBWrites(group: 1) && !MifareClassicAccessBits.madReadWrite.keyAWrites(group: 1))
        #expect(throws: TagError.invalidTagData("access bits FFFFFF: the inverted copies disagree")) {
            try MifareClassicAccessBits(bytes: Self.hex("FF FF FF"))
        }
        #expect(throws: TagError.self) { try MifareClassicAccessBits(bytes: [0x7F, 0x07]) }
    }

    @Test("MAD1 of an NDEF-formatted 1K: CRC 14 checks, sectors 1–15 are NDEF, publisher sector 1")
    func mad1() throws {
        let mad = try MifareApplicationDirectory(gpb: 0xC1, mad1: Self.mad1, layout: .classic1K)
        #expect(mad.version == 1 && mad.publisherSector == 1)
        #expect(mad.ndefSectors == Array(1...15))
        #expect(MifareApplicationDirectory.crc(Self.mad1[1...]) == 0x14)
        #expect(MifareApplicationDirectory.ndefFormatted(.classic1K).mad1 == Self.mad1)
        #expect(MifareApplicationDirectory.ndefFormatted(.classic1K).mad2 == nil)
    }

    @Test("hostile MADs: a bad CRC, no DA bit, an unknown version, MAD2 on a 1K, a short block, a publisher beyond MAD1")
    func hostileMAD() {
        var bad = Self.mad1
        bad[0] = 0x15
        #expect(throws: TagError.invalidTagData("MAD1 CRC 15, its bytes give 14")) {
            try MifareApplicationDirectory(gpb: 0xC1, mad1: bad, layout: .classic1K)
        }
        #expect(throws: TagError.notNDEFFormatted("sector 0 holds no MIFARE Application Directory (GPB 69)")) {
            try MifareApplicationDirectory(gpb: 0x69, mad1: Self.mad1, layout: .classic1K)
        }
        #expect(throws: TagError.self) { try MifareApplicationDirectory(gpb: 0xC3, mad1: Self.mad1, layout: .classic1K) }
        let (mad1, mad2) = MifareApplicationDirectory.ndefFormatted(.classic4K)
        #expect(throws: TagError.invalidTagData("a MAD2 on a card of 16 sectors")) {
            try MifareApplicationDirectory(gpb: 0xC2, mad1: mad1, mad2: mad2, layout: .classic1K)
        }
        #expect(throws: TagError.self) { try MifareApplicationDirectory(gpb: 0xC1, mad1: Array(Self.mad1.prefix(16)), layout: .classic1K) }
        var publisher = Self.mad1
        publisher[1] = 0x20
        publisher[0] = MifareApplicationDirectory.crc(publisher[1...])
        #expect(throws: TagError.invalidTagData("MAD1 names publisher sector 32")) {
            try MifareApplicationDirectory(gpb: 0xC1, mad1: publisher, layout: .classic1K)
        }
    }

    @Test("a 4K's MAD2: sectors 17–39 after 1–15; the NDEF area runs across sector 16 and into the 16-block sectors")
    func mad2() throws {
        let (mad1, mad2) = MifareApplicationDirectory.ndefFormatted(.classic4K)
        let mad = try MifareApplicationDirectory(gpb: 0xC2, mad1: mad1, mad2: mad2, layout: .classic4K)
        #expect(mad.ndefSectors == Array(1...15) + Array(17...39))
        let area = try MifareClassicNDEFArea(mad: mad, layout: .classic4K)
        #expect(area.sectors == mad.ndefSectors)
        #expect(area.size == (45 + 45 + 8 * 15) * 16 && area.capacity == area.size - 4)
        #expect(!area.blocks.contains(64) && !area.blocks.contains(143) && area.blocks.contains(142))
        var badMAD2 = try #require(mad2)
        badMAD2[5] ^= 0x01
        #expect(throws: TagError.self) { try MifareApplicationDirectory(gpb: 0xC2, mad1: mad1, mad2: badMAD2, layout: .classic4K) }
    }

    @Test("the NDEF area of a 1K: 720 bytes; TLVs scanned from a prefix; a TLV past the area is refused; an image round-trips")
    func area() throws {
        var mad1 = Self.mad1
        // Sector 4 holds another application: the NDEF run is sectors 1–3 only.
        mad1[8] = 0x01
        mad1[9] = 0x08
        mad1[0] = MifareApplicationDirectory.crc(mad1[1...])
        let mad = try MifareApplicationDirectory(gpb: 0xC1, mad1: mad1, layout: .classic1K)
        #expect(mad.applications[4] == [0x01, 0x08])
        let short = try MifareClassicNDEFArea(mad: mad, layout: .classic1K)
        #expect(short.sectors == [1, 2, 3] && short.size == 144 && short.capacity == 142)
        #expect(short.blocks == [4, 5, 6, 8, 9, 10, 12, 13, 14])

        let area = try MifareClassicNDEFArea(mad: try MifareApplicationDirectory(gpb: 0xC1, mad1: Self.mad1, layout: .classic1K), layout: .classic1K)
        #expect(area.size == 720 && area.capacity == 716)
        let message = Self.hex("D1 01 0C 55 03 65 78 61 6D 70 6C 65 2E 63 6F 6D")
        let image = try area.image(of: message)
        #expect(image.count == 720 && image.prefix(2) == [0x03, 0x10] && image[18] == 0xFE)
        #expect(try area.scan(Array(image.prefix(16))) == .needMore(bytes: 18))
        #expect(try area.scan(Array(image.prefix(32))) == .message(valueOffset: 2, length: 16))
        #expect(try area.scan([0x00, 0x00, 0xFE]) == .noMessage)
        #expect(try area.scan([0xFD, 0x01, 0xAA, 0x03, 0x00]) == .message(valueOffset: 5, length: 0))
        #expect(throws: TagError.self) { try area.scan([0x03, 0xFF, 0x03, 0x00]) }  // 768 bytes in a 720-byte area
        #expect(throws: TagError.messageTooLarge(size: 717, capacity: 716)) { try area.image(of: [UInt8](repeating: 0, count: 717)) }
        let long = try area.image(of: [UInt8](repeating: 0xAB, count: 300))
        #expect(long.prefix(4) == [0x03, 0xFF, 0x01, 0x2C])
        #expect(try area.scan(long) == .message(valueOffset: 4, length: 300))
    }

    @Test("key files: one 12-hex-digit key per line, # comments, blank lines, duplicates once; a bad line is named, not echoed")
    func keyDictionary() throws {
        let text = "# Proxmark-style dictionary\nFFFFFFFFFFFF\n\n a0a1a2a3a4a5   # MAD key\r\nD3F7D3F7D3F7\nffffffffffff\n"
        #expect(try MifareClassicKey.dictionary(text) == [MifareClassicKey.transport, MifareClassicKey.mad, MifareClassicKey.nfcForum])
        #expect(try MifareClassicKey.dictionary("") == [])
        #expect(throws: MifareClassicKeyFileError(line: 2, reason: "not a key of 12 hex digits")) {
            try MifareClassicKey.dictionary("FFFFFFFFFFFF\nsecret-12345\n")
        }
        #expect(throws: MifareClassicKeyFileError.self) { try MifareClassicKey.dictionary("FFFFFFFFFFF\n") }
        #expect(throws: MifareClassicKeyFileError.self) { try MifareClassicKey.dictionary("0xFFFFFFFFFF\n") }
        let many = (0...MifareClassicKey.maxKeys).map { String(format: "%012X", $0) }.joined(separator: "\n")
        #expect(throws: MifareClassicKeyFileError(line: MifareClassicKey.maxKeys + 1, reason: "more than \(MifareClassicKey.maxKeys) keys")) {
            try MifareClassicKey.dictionary(many)
        }
    }

    @Test("a MAD without NDEF sectors is not NDEF formatted")
    func noNDEF() throws {
        var mad1 = [UInt8](repeating: 0, count: 32)
        mad1[1] = 0x01
        mad1[2] = 0x01
        mad1[3] = 0x08
        mad1[0] = MifareApplicationDirectory.crc(mad1[1...])
        let mad = try MifareApplicationDirectory(gpb: 0xC1, mad1: mad1, layout: .classic1K)
        #expect(mad.applications == [1: [0x01, 0x08]])
        #expect(throws: TagError.notNDEFFormatted("the MAD names no NDEF sector (03 E1)")) {
            try MifareClassicNDEFArea(mad: mad, layout: .classic1K)
        }
    }
}
