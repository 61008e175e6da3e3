import Testing
import NDEF
import NFCTags
import TagEmulation

/// Inputs the `type2` fuzz target found (Fuzz/README.md), replayed on the project's own virtual tag.
@Suite("Type 2 fuzz regressions")
struct Type2FuzzRegressionTests {
    /// Fuzz/findings/type2-read-wraps-past-memory: a MIFARE Ultralight (16 pages, no GET_VERSION)
    /// whose CC claims a 144-byte data area (`E1 10 12 00`, as on an NTAG213) and whose NDEF TLV
    /// `03 30` runs past page 15. READ rolls over to page 0 at the end of memory, so the last
    /// 8 "message" bytes are the UID and serial bytes of pages 0-1: wrong data presented as right.
    /// The read must fail instead. Pages 0–2 carry a valid UID with its check bytes (BCC0 = 88 ⊕ UID0-2,
    /// BCC1 = ⊕ UID3-6), as every real chip's do: the defence relies on them (Type2PageCache).
    @Test func readDoesNotRollOverIntoTheUID() throws {
        let image = T2.hex("""
            04 5A 2C FA 91 6E 3F 80 40 48 00 00 E1 10 12 00 01 03 A0 0C 34 03 30 26 6D 57 63 3F 6D 45 3D 63
            2F 72 2F 6E 66 45 3D 62 30 70 74 69 6F 6E 61 6C 3F 6D 45 3D 62 30 63 3F 6D 45 3D 62 30 00 00 00
            """)
        for raw in [true, false] {
            let chip = try VirtualType2Tag(product: .ultralight, memory: image)
            let tag = Type2Tag(link: NativeType2Link(tag: chip, raw: raw))
            #expect {
                _ = try tag.readNDEF()
            } throws: { error in
                guard case let TagError.invalidTagData(why) = error else { return false }
                return why.contains("page 16 reads back as page 0")
            }
        }
    }

    /// The same on a chip the emulator builds itself: an Ultralight formatted with NTAG213's CC.
    @Test func ultralightWithAnNTAG213CCFailsCleanly() throws {
        let chip = try VirtualType2Tag(product: .ultralight, uid: VirtualType2Tag.defaultUID)
        var memory = chip.memory
        let message: [UInt8] = [0x03, 0x30] + Array(repeating: 0x41, count: 0x30) + [0xFE]
        memory.replaceSubrange(12 ..< 16, with: [0xE1, 0x10, 0x12, 0x00])
        memory.replaceSubrange(16 ..< 64, with: Array(message.prefix(48)))
        let lying = try VirtualType2Tag(product: .ultralight, memory: memory)
        let tag = Type2Tag(link: NativeType2Link(tag: lying, raw: false))
        #expect {
            _ = try tag.readNDEF()
        } throws: { error in
            guard case let TagError.invalidTagData(why) = error else { return false }
            return why.contains("page 16 reads back as page 0")
        }
    }
}
