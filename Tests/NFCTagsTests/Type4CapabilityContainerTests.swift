import NDEF
import NFCTags
import Testing

@Suite("Type 4 capability container")
struct Type4CapabilityContainerTests {
    static let v2 = "00 0F 20 00 3B 00 34 04 06 E1 04 00 FF 00 00"
    static let v3 = "00 11 30 00 FF 00 FF 06 08 E1 04 00 01 00 00 00 FF"

    @Test("v2.0 both ways")
    func v2() throws {
        let cc = try Type4CapabilityContainer(bytes: T4.hex(Self.v2))
        #expect(cc.ccLength == 15)
        #expect(cc.mappingVersion == 0x20 && cc.majorVersion == 2)
        #expect(cc.maxResponseLength == 0x3B)
        #expect(cc.maxCommandLength == 0x34)
        #expect(cc.ndefFileID == [0xE1, 0x04])
        #expect(cc.maxNDEFFileSize == 0xFF)
        #expect(cc.readAccess == .granted && cc.writeAccess == .granted)
        #expect(!cc.usesExtendedNDEFLength && cc.lengthFieldSize == 2)
        #expect(cc.capacity == 0xFD)
        #expect(cc.writeAccessOffset == 14)
        #expect(cc.bytes == T4.hex(Self.v2))
    }

    @Test("v3.0 both ways: ENLEN, 4-byte size")
    func v3() throws {
        let cc = try Type4CapabilityContainer(bytes: T4.hex(Self.v3))
        #expect(cc.ccLength == 17)
        #expect(cc.majorVersion == 3)
        #expect(cc.maxNDEFFileSize == 0x0001_0000)
        #expect(cc.writeAccess == .denied)
        #expect(cc.usesExtendedNDEFLength && cc.lengthFieldSize == 4)
        #expect(cc.capacity == 0x0001_0000 - 4)
        #expect(cc.writeAccessOffset == 16)
        #expect(cc.bytes == T4.hex(Self.v3))
    }

    @Test("legacy mapping 1.0 uses the v2 layout")
    func v1() throws {
        let cc = try Type4CapabilityContainer(bytes: T4.hex("00 0F 10 00 3B 00 34 04 06 E1 04 08 00 00 00"))
        #expect(cc.majorVersion == 1 && cc.lengthFieldSize == 2 && cc.maxNDEFFileSize == 0x0800)
    }

    @Test("a v3 file beyond 16 MiB counts as 16 MiB (3-byte offsets)")
    func hugeV3() throws {
        let cc = try Type4CapabilityContainer(bytes: T4.hex("00 11 30 00 FF 00 FF 06 08 E1 04 7F 00 00 00 00 00"))
        #expect(cc.capacity == 0x100_0000 - 4)
    }

    @Test("access bytes", arguments: [
        (UInt8(0x00), Type4AccessCondition.granted, true),
        (UInt8(0xFF), Type4AccessCondition.denied, false),
        (UInt8(0x80), Type4AccessCondition.proprietary(0x80), true),
        (UInt8(0xFE), Type4AccessCondition.proprietary(0xFE), true),
        (UInt8(0x01), Type4AccessCondition.reserved(0x01), false),
        (UInt8(0x7F), Type4AccessCondition.reserved(0x7F), false),
    ])
    func access(_ byte: UInt8, _ condition: Type4AccessCondition, _ granted: Bool) {
        #expect(Type4AccessCondition(byte: byte) == condition)
        #expect(condition.byte == byte)
        #expect(condition.isGranted == granted)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: String
        let unsupported: Bool
        var testDescription: String { name }
        init(_ name: String, _ bytes: String, unsupported: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.unsupported = unsupported
        }
    }

    @Test("malformed CCs are rejected", arguments: [
        Bad("14 bytes", "00 0F 20 00 3B 00 34 04 06 E1 04 00 FF 00"),
        Bad("CCLEN 14", "00 0E 20 00 3B 00 34 04 06 E1 04 00 FF 00 00"),
        Bad("MLe 0E", "00 0F 20 00 0E 00 34 04 06 E1 04 00 FF 00 00"),
        Bad("MLc 0C", "00 0F 20 00 3B 00 0C 04 06 E1 04 00 FF 00 00"),
        Bad("TLV tag 05", "00 0F 20 00 3B 00 34 05 06 E1 04 00 FF 00 00"),
        Bad("TLV length 07", "00 0F 20 00 3B 00 34 04 07 E1 04 00 FF 00 00"),
        Bad("v2 CC with v3 TLV", "00 0F 20 00 3B 00 34 06 08 E1 04 00 FF 00 00"),
        Bad("v3 CC with v2 TLV", "00 11 30 00 FF 00 FF 04 06 E1 04 00 01 00 00 00 00"),
        Bad("v3 CC cut to 15 bytes", "00 11 30 00 FF 00 FF 06 08 E1 04 00 01 00 00"),
        Bad("v3 CCLEN 15", "00 0F 30 00 FF 00 FF 06 08 E1 04 00 01 00 00 00 00"),
        Bad("maxSize 4", "00 0F 20 00 3B 00 34 04 06 E1 04 00 04 00 00"),
        Bad("maxSize FFFF", "00 0F 20 00 3B 00 34 04 06 E1 04 FF FF 00 00"),
        Bad("v3 maxSize 4", "00 11 30 00 FF 00 FF 06 08 E1 04 00 00 00 04 00 00"),
        Bad("file ID E103", "00 0F 20 00 3B 00 34 04 06 E1 03 00 FF 00 00"),
        Bad("file ID 3F00", "00 0F 20 00 3B 00 34 04 06 3F 00 00 FF 00 00"),
        Bad("mapping 4.0", "00 0F 40 00 3B 00 34 04 06 E1 04 00 FF 00 00", unsupported: true),
        Bad("mapping 0.1", "00 0F 01 00 3B 00 34 04 06 E1 04 00 FF 00 00", unsupported: true),
    ])
    func malformed(_ bad: Bad) {
        do {
            _ = try Type4CapabilityContainer(bytes: T4.hex(bad.bytes))
            Issue.record("accepted \(bad.name)")
        } catch TagError.invalidTagData {
            #expect(!bad.unsupported)
        } catch TagError.unsupported {
            #expect(bad.unsupported)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
