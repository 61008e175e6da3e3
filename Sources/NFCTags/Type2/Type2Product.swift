/// The Type 2 chips the project knows by name (docs/tags-and-readers.md §1).
///
/// Detection is layered: GET_VERSION (60h) when the reader passes raw commands, else the data area
/// size in the Capability Container, else `.unknown` (the generic NFC Forum Type 2 class, which is
/// read and written by the CC and TLVs alone).
public enum Type2Product: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NXP NTAG213 (NT2H1311): 144 user bytes, 45 pages.
    case ntag213
    /// NXP NTAG215 (NT2H1511): 504 user bytes (CC says 496), 135 pages.
    case ntag215
    /// NXP NTAG216 (NT2H1611): 888 user bytes (CC says 872), 231 pages.
    case ntag216
    /// MIFARE Ultralight (MF0ICU1): 48 user bytes, 16 pages, no GET_VERSION.
    case ultralight
    /// MIFARE Ultralight C (MF0ICU2): 144 user bytes, 48 pages, no GET_VERSION.
    case ultralightC
    /// MIFARE Ultralight EV1 MF0UL11: 48 user bytes, 20 pages.
    case ultralightEV1MF0UL11
    /// MIFARE Ultralight EV1 MF0UL21: 128 user bytes, 41 pages.
    case ultralightEV1MF0UL21
    /// A Type 2 tag not in the table: handled by its CC and TLVs only.
    case unknown

    public var description: String {
        switch self {
        case .ntag213: return "NTAG213"
        case .ntag215: return "NTAG215"
        case .ntag216: return "NTAG216"
        case .ultralight: return "MIFARE Ultralight"
        case .ultralightC: return "MIFARE Ultralight C"
        case .ultralightEV1MF0UL11: return "MIFARE Ultralight EV1 (MF0UL11)"
        case .ultralightEV1MF0UL21: return "MIFARE Ultralight EV1 (MF0UL21)"
        case .unknown: return "Type 2 tag"
        }
    }

    /// The 8-byte GET_VERSION answer (NXP datasheets: vendor 04, type 04 NTAG / 03 Ultralight EV1,
    /// storage size byte 6). nil for chips that do not implement GET_VERSION.
    public var versionBytes: [UInt8]? {
        switch self {
        case .ntag213: return [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]
        case .ntag215: return [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
        case .ntag216: return [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03]
        case .ultralightEV1MF0UL11: return [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03]
        case .ultralightEV1MF0UL21: return [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03]
        case .ultralight, .ultralightC, .unknown: return nil
        }
    }

    /// Identifies a chip from its GET_VERSION answer: vendor NXP (04), product type 04 (NTAG) or
    /// 03 (Ultralight EV1), storage size byte. Subtype (capacitance) and minor version are ignored,
    /// so the 50 pF variants map to the same product. nil when the answer is not in the table.
    public init?(version: [UInt8]) {
        guard version.count == 8, version[1] == 0x04 else { return nil }
        switch (version[2], version[6]) {
        case (0x04, 0x0F): self = .ntag213
        case (0x04, 0x11): self = .ntag215
        case (0x04, 0x13): self = .ntag216
        case (0x03, 0x0B): self = .ultralightEV1MF0UL11
        case (0x03, 0x0E): self = .ultralightEV1MF0UL21
        default: return nil
        }
    }

    /// Best guess from the CC data area size byte alone (no GET_VERSION available).
    ///
    /// `0x12` (144 bytes) is shared by NTAG213, NTAG203 and Ultralight C: when the tag did not answer
    /// GET_VERSION it cannot be an NTAG21x, so `versionUnanswered` picks Ultralight C; when the reader
    /// could not ask, NTAG213 (by far the most common) is assumed. Both keep the dynamic lock bytes
    /// at page 28h. `0x06` is Ultralight or MF0UL11: the generic Ultralight class serves both.
    public init(ccDataAreaSize size: UInt8, versionUnanswered: Bool) {
        switch size {
        case 0x06: self = .ultralight
        case 0x10: self = .ultralightEV1MF0UL21
        case 0x12: self = versionUnanswered ? .ultralightC : .ntag213
        case 0x3E: self = .ntag215
        case 0x6D: self = .ntag216
        default: self = .unknown
        }
    }

    /// Pages in the chip's memory map (the end of its READ address range).
    public var totalPages: Int? {
        switch self {
        case .ntag213: return 45
        case .ntag215: return 135
        case .ntag216: return 231
        case .ultralight: return 16
        case .ultralightC: return 48
        case .ultralightEV1MF0UL11: return 20
        case .ultralightEV1MF0UL21: return 41
        case .unknown: return nil
        }
    }

    /// Physical user memory in bytes (pages 4 up to the first configuration/lock page).
    public var userMemorySize: Int? {
        switch self {
        case .ntag213: return 144
        case .ntag215: return 504
        case .ntag216: return 888
        case .ultralight, .ultralightEV1MF0UL11: return 48
        case .ultralightC: return 144
        case .ultralightEV1MF0UL21: return 128
        case .unknown: return nil
        }
    }

    /// The CC written when formatting (NXP factory values for NTAG21x).
    public var capabilityContainer: Type2CapabilityContainer? {
        let size: UInt8
        switch self {
        case .ntag213, .ultralightC: size = 0x12
        case .ntag215: size = 0x3E
        case .ntag216: size = 0x6D
        case .ultralight, .ultralightEV1MF0UL11: size = 0x06
        case .ultralightEV1MF0UL21: size = 0x10
        case .unknown: return nil
        }
        return Type2CapabilityContainer(version: 0x10, dataAreaSize: size, access: 0x00)
    }

    /// The TLVs a freshly formatted tag holds at page 4: NTAG213 keeps its factory Lock Control TLV
    /// (`01 03 A0 0C 34`: 12 lock bits at page 28h, 8 bytes per bit), Ultralight C the one NXP
    /// formats it with (`01 03 A0 10 44`: 16 bits at page 28h, 16 bytes per bit); the rest `03 00 FE`.
    public var formattedTLVs: [UInt8] {
        switch self {
        case .ntag213: return [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE]
        case .ultralightC: return [0x01, 0x03, 0xA0, 0x10, 0x44, 0x03, 0x00, 0xFE]
        default: return [0x03, 0x00, 0xFE]
        }
    }

    /// Where the chip keeps its dynamic lock bits when no Lock Control TLV says otherwise.
    /// nil for chips with only static lock bytes (48-byte Ultralights); for `.unknown` use
    /// `Type2LockArea.nfcForumDefault(dataAreaSize:)`.
    public var defaultDynamicLockArea: Type2LockArea? {
        switch self {
        case .ntag213: return Type2LockArea(address: 0x28 * 4, bitCount: 12, bytesPerLockBit: 8)
        case .ntag215: return Type2LockArea(address: 0x82 * 4, bitCount: 8, bytesPerLockBit: 64)
        case .ntag216: return Type2LockArea(address: 0xE2 * 4, bitCount: 14, bytesPerLockBit: 64)
        case .ultralightC: return Type2LockArea(address: 0x28 * 4, bitCount: 16, bytesPerLockBit: 16)
        case .ultralightEV1MF0UL21: return Type2LockArea(address: 0x24 * 4, bitCount: 10, bytesPerLockBit: 8)
        case .ultralight, .ultralightEV1MF0UL11, .unknown: return nil
        }
    }

    /// FAST_READ (3Ah) exists on NTAG21x and Ultralight EV1; Ultralight and Ultralight C go mute on it.
    public var supportsFastRead: Bool { versionBytes != nil }
}
