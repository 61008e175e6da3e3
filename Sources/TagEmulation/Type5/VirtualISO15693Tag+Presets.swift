import NDEF
import NFCTags

extension VirtualISO15693Tag {
    /// A real ICODE SLIX2 image: the Flipper Zero firmware's unit-test dump
    /// `applications/debug/unit_tests/resources/unit_tests/nfc/Slix_cap_default.nfc`
    /// (flipperdevices/flipperzero-firmware, commit 2ac5bee86b58925e5af875fe12267a773535b670):
    /// UID `E0 04 01 08 49 D0 DC 81`, DSFID `01`, AFI `3D`, IC reference `01`, 80 blocks of 4 bytes,
    /// no block locked. A library/asset label, not NDEF formatted (block 0 = `03 0A 82 ED`).
    public static func flipperSLIX2Dump() -> VirtualISO15693Tag {
        VirtualISO15693Tag(model: .icodeSLIX2, uid: flipperSLIX2UID, memory: flipperSLIX2Memory, dsfid: 0x01, afi: 0x3D)
    }

    public static let flipperSLIX2UID: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x49, 0xD0, 0xDC, 0x81]

    /// The dump's "Data Content", 320 bytes.
    public static let flipperSLIX2Memory: [UInt8] = [UInt8](hex: """
        03 0A 82 ED 86 39 61 D2 03 14 1E 32 B6 CA 00 3C 36 42 0C 33 53 30 37 32 32 34 30 30 00 00 00 00
        00 FF 04 01 01 00 00 00 A3 03 1E 00 26 00 00 00 00 00 0F 00 76 03 65 01 00 00 00 00 85 01 34 00
        75 09 05 00 01 00 00 00 00 00 00 00 00 00 00 00 D7 FA 00 1C 9E 1C 67 27 00 30 30 30 30 30 30 30
        30 30 30 00 00 00 97 25 55 08 00 00 00 00 00 00 00 00 00 00 00 00 00 00 32 8C 00 30 53 48 80 DE
        00 00 00 00 F4 C3 58 2B 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00 00 00 00 00 11 F3 00 2C DD C3 3E 91 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 E5 FF 00 01
        """)!

    /// A tag of `model` formatted for NDEF (`Type5CapabilityContainer.forBlankTag`, Read Multiple
    /// announced where the chip has it) holding `message` (empty: `03 00 FE`).
    public static func formatted(_ model: ISO15693ChipModel, uid: [UInt8], message: [UInt8] = [],
                                 features: UInt8? = nil) -> VirtualISO15693Tag {
        let cc = Type5CapabilityContainer.forBlankTag(memorySize: model.memorySize,
                                                      features: features ?? (model.maxReadMultipleBlocks > 0 && !model.refusesOptionOnWrite ? 0x01 : 0x00))
        let header: [UInt8] = message.count >= 0xFF ? [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)] : [0x03, UInt8(message.count)]
        return VirtualISO15693Tag(model: model, uid: uid, memory: cc.bytes + header + message + [0xFE])
    }

    /// Example UIDs with the manufacturer and product bytes of each chip (docs/tags-and-readers.md §7.5).
    public static func exampleUID(_ model: ISO15693ChipModel, serial: UInt8 = 0x01) -> [UInt8] {
        switch model.name {
        case ISO15693ChipModel.st25dv04k.name: return [0xE0, 0x02, 0x24, 0x00, 0x31, 0x52, 0x07, serial]
        case ISO15693ChipModel.tagItHFIPlus.name: return [0xE0, 0x07, 0x00, 0x00, 0x1D, 0x3A, 0x55, serial]
        default: return [0xE0, 0x04, 0x01, 0x08, 0x12, 0x34, 0x56, serial]
        }
    }
}
