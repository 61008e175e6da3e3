/// Identifiers and instruction codes of the NFC Forum Type 4 Tag NDEF mapping
/// (docs/tags-and-readers.md §2).
public enum Type4 {
    /// NDEF Tag Application, mapping versions 2.0 and 3.0.
    public static let ndefApplicationID: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// NDEF Tag Application of legacy mapping version 1.0 tags.
    public static let legacyNDEFApplicationID: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    /// File identifier of the capability container.
    public static let ccFileID: [UInt8] = [0xE1, 0x03]
    /// File identifiers an NDEF file may not use (ISO 7816-4 reserved ones and the CC's).
    public static let reservedFileIDs: Set<[UInt8]> = [
        [0x00, 0x00], [0xE1, 0x02], [0xE1, 0x03], [0x3F, 0x00], [0x3F, 0xFF], [0xFF, 0xFF],
    ]
    /// Highest offset READ BINARY `B0` / UPDATE BINARY `D6` can address (15 bits in P1 P2).
    public static let maxShortOffset = 0x7FFF
    /// Highest offset the offset data object `54 03 o2 o1 o0` can address.
    public static let maxODOOffset = 0xFF_FFFF

    enum Instruction {
        static let select: UInt8 = 0xA4
        static let readBinary: UInt8 = 0xB0
        static let readBinaryODO: UInt8 = 0xB1
        static let updateBinary: UInt8 = 0xD6
        static let updateBinaryODO: UInt8 = 0xD7
    }

    /// Tag of the offset data object (ISO 7816-4 §7.2.2).
    static let offsetDOTag: UInt8 = 0x54
    /// Tag of the discretionary data object that carries data with B1/D7.
    static let dataDOTag: UInt8 = 0x53
}
