import NDEF
@testable import NFCTags
import TagEmulation
import Testing

@Suite("Type 5: system info, CC, chip identification, frames")
struct Type5ParsingTests {
    @Test func systemInfoOfAnICODESLIFromAPublicTrace() throws {
        // Get System Info answer of an ICODE SLI (docs/tags-and-readers.md §7.4), flags byte 00 removed.
        let reply = T5.hex("00 0F 2E 98 5C 8A 00 01 04 E0 00 00 1B 03 01")
        let info = try ISO15693SystemInfo(responseData: try ISO15693Frame.responseData(reply, for: "test"))
        #expect(info.uid == T5.hex("E0 04 01 00 8A 5C 98 2E"))
        #expect(info.dsfid == 0 && info.afi == 0)
        #expect(info.blockCount == 28 && info.blockSize == 4)
        #expect(info.icReference == 0x01)
        #expect(info.responseData == Array(reply.dropFirst()), "encodes back to the same bytes")
        #expect(Type5Product(uid: info.uid, icReference: info.icReference) == .icodeSLI)
    }

    @Test func systemInfoWithMissingOrTrailingFieldsIsATypedError() {
        for bad in ["0F 2E 98 5C 8A 00 01 04 E0 00 00 1B 03", "0F 2E 98 5C 8A 00 01 04 E0 00 00 1B 03 01 99", "04 2E 98", ""] {
            #expect(throws: TagError.self) { try ISO15693SystemInfo(responseData: T5.hex(bad)) }
        }
        // Block size: only bits 4–0 count (the top three are RFU).
        let info = try? ISO15693SystemInfo(responseData: T5.hex("04 2E 98 5C 8A 00 01 04 E0 1B E3"))
        #expect(info?.blockSize == 4)
    }

    @Test func errorResponsesBecomeTypedErrors() {
        #expect(throws: TagError.iso15693(code: 0x10)) { try ISO15693Frame.responseData([0x01, 0x10], for: "read") }
        #expect(throws: TagError.malformedReply("ISO 15693 error flag without a code (read)")) {
            try ISO15693Frame.responseData([0x01], for: "read")
        }
        #expect(TagError.iso15693(code: 0x12).description.contains("block locked"))
    }

    @Test func framesCarryTheUIDLeastSignificantByteFirst() throws {
        let uid = T5.hex("E0 04 01 08 49 D0 DC 81")
        let frame = ISO15693Frame.request(.readSingleBlock, flags: 0x22, uid: uid, parameters: [0x05])
        #expect(frame == T5.hex("22 20 81 DC D0 49 08 01 04 E0 05"))
        #expect(ISO15693Frame.request(.readSingleBlock, flags: 0x02, uid: uid, parameters: [0x05]) == T5.hex("02 20 05"))
        let parsed = try ISO15693Frame.parse(frame)
        #expect(parsed.uid == uid && parsed.code == 0x20 && parsed.parameters == [0x05])
        #expect(throws: TagError.self) { try ISO15693Frame.parse(T5.hex("22 20 81 DC")) }
    }

    @Test func capabilityContainers() throws {
        let small = try Type5CapabilityContainer(bytes: T5.hex("E1 40 0E 01"))
        #expect(small.dataAreaSize == 112 && small.length == 4 && small.supportsReadMultiple && small.isWritable)
        let large = try Type5CapabilityContainer(bytes: T5.hex("E2 40 00 01 00 00 04 00"))
        #expect(large.dataAreaSize == 8192 && large.length == 8)
        #expect(large.bytes == T5.hex("E2 40 00 01 00 00 04 00"))
        #expect(Type5CapabilityContainer.forBlankTag(memorySize: 8192) == large.with(features: 0))
        #expect(Type5CapabilityContainer.forBlankTag(memorySize: 512).bytes == T5.hex("E1 40 40 00"))
        let readOnly = try Type5CapabilityContainer(bytes: T5.hex("E1 43 40 00"))
        #expect(!readOnly.isWritable)
        #expect(throws: TagError.self) { try Type5CapabilityContainer(bytes: T5.hex("03 0A 82 ED")) }
        #expect(throws: TagError.self) { try Type5CapabilityContainer(bytes: T5.hex("E1 80 40 00")) }
        #expect(throws: TagError.self) { try Type5CapabilityContainer(bytes: T5.hex("E2 40 00 01")) }
    }

    @Test func chipsAreToldFromUIDAndICReference() {
        #expect(Type5Product(uid: VirtualISO15693Tag.flipperSLIX2UID, icReference: 0x01) == .icodeSLIX2)
        #expect(Type5Product(uid: T5.hex("E0 04 01 10 00 00 00 01"), icReference: nil) == .icodeSLIX)
        #expect(Type5Product(uid: T5.hex("E0 04 01 18 00 00 00 01"), icReference: nil) == .ntag5)
        #expect(Type5Product(uid: T5.hex("E0 04 02 10 00 00 00 01"), icReference: nil) == .icodeSLIXS)
        #expect(Type5Product(uid: T5.hex("E0 04 03 00 00 00 00 01"), icReference: nil) == .icodeSLIL)
        #expect(Type5Product(uid: T5.hex("E0 02 24 00 00 00 00 01"), icReference: 0x24) == .st25dv04k)
        #expect(Type5Product(uid: T5.hex("E0 02 00 00 00 00 00 01"), icReference: 0x26) == .st25dv16or64k)
        #expect(Type5Product(uid: T5.hex("E0 07 C4 00 00 00 00 01"), icReference: nil) == .tagItHFIPro)
        #expect(Type5Product(uid: T5.hex("E0 07 C4 00 00 00 00 01"), icReference: nil).assumedLayout! == (4, 8))
        #expect(Type5Product(uid: T5.hex("E0 07 00 00 00 00 00 01"), icReference: nil) == .tagItHFIPlus)
        #expect(Type5Product(uid: T5.hex("E0 16 00 00 00 00 00 01"), icReference: nil).description == "ISO 15693 tag (EM Microelectronic)")
        #expect(Type5Product(uid: T5.hex("04 16 00 00 00 00 00 01"), icReference: nil) == .unknown)
    }

    @Test func getDataUIDsAreNormalisedToMostSignificantByteFirst() {
        #expect(ISO15693UID.normalized(T5.hex("81 DC D0 49 08 01 04 E0")) == VirtualISO15693Tag.flipperSLIX2UID)
        #expect(ISO15693UID.normalized(VirtualISO15693Tag.flipperSLIX2UID) == VirtualISO15693Tag.flipperSLIX2UID)
        #expect(ISO15693UID.normalized([1, 2, 3, 4]) == [1, 2, 3, 4])
    }

    @Test func storageCardStandardBytes() {
        #expect(StorageCardTechnology(standard: 0x0B, name: StorageCardName(code: 0x0014)) == .iso15693)
        #expect(StorageCardTechnology(standard: 0x0C, name: StorageCardName(code: 0x0000)) == .iso15693)
        #expect(StorageCardTechnology(standard: 0x0B, name: StorageCardName(code: 0x0018)) == .iclass)
        #expect(StorageCardTechnology(standard: 0x0A, name: StorageCardName(code: 0x0000)) == .iclass)
        #expect(StorageCardTechnology(standard: 0x40, name: StorageCardName(code: 0x0000)) == .lowFrequency)
        #expect(StorageCardTechnology(standard: 0x11, name: StorageCardName(code: 0x003B)) == .felica)
        #expect(StorageCardTechnology(standard: 0x03, name: .mifareClassic1K) == .mifareClassic)
        #expect(StorageCardTechnology(standard: 0x03, name: .mifareUltralight) == .iso14443A)
        #expect(StorageCardTechnology(standard: 0x07, name: StorageCardName(code: 0)) == .iso14443B)
        #expect(StorageCardName(code: 0x0014).iso15693Name == "NXP ICODE SLI")
    }
}

extension Type5CapabilityContainer {
    func with(features: UInt8) -> Type5CapabilityContainer {
        var copy = self
        copy.features = features
        return copy
    }
}
