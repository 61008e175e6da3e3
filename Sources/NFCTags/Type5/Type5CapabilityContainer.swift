import NDEF

/// The NFC Forum Type 5 capability container at the start of block 0 (docs/tags-and-readers.md §7.6):
///
/// - 4 bytes: `E1|E2  version+access  MLEN/8  features`, the TLV area starting at byte 4;
/// - 8 bytes (large memories): `E2 version+access 00 features 00 00 MLEN/8 (big-endian 16 bits)`,
///   the TLV area starting at byte 8.
public struct Type5CapabilityContainer: Sendable, Hashable {
    /// `E1`: 1-byte block numbers reach the whole data area; `E2`: beyond block 255 needs the
    /// extended commands.
    public var magic: UInt8
    /// Bits 7–4: major and minor mapping version (`40` = 1.0).
    public var version: UInt8
    /// Bits 3–2 of CC1: `0` = always readable.
    public var readAccess: UInt8
    /// Bits 1–0 of CC1: `0` always, `2` proprietary, `3` never.
    public var writeAccess: UInt8
    /// MLEN × 8: the memory the CC describes, in bytes. Tags count the CC in it, so the TLV area
    /// runs from `length` to the smaller of this and the memory size (docs/tags-and-readers.md §7.6).
    public var dataAreaSize: Int
    /// CC3: `01` Read Multiple Blocks supported, `08` Lock Block supported, `10` special frame.
    public var features: UInt8
    /// 4 or 8.
    public var length: Int

    public init(magic: UInt8 = 0xE1, version: UInt8 = 0x40, readAccess: UInt8 = 0, writeAccess: UInt8 = 0,
                dataAreaSize: Int, features: UInt8 = 0, length: Int = 4) {
        self.magic = magic
        self.version = version
        self.readAccess = readAccess
        self.writeAccess = writeAccess
        self.dataAreaSize = dataAreaSize
        self.features = features
        self.length = length
    }

    /// The CC for a blank tag of `memorySize` bytes. MLEN counts the whole memory in units of
    /// 8 bytes, as ICODE and ST tags are shipped (`E1 40 0E …` on a 112-byte ICODE SLI, `E1 40 40 …`
    /// on a 512-byte ST25DV04K): 4 bytes up to 2040 bytes, else 8 bytes with magic `E2`.
    public static func forBlankTag(memorySize: Int, features: UInt8 = 0) -> Type5CapabilityContainer {
        let size = memorySize / 8 * 8
        if size / 8 <= 0xFF {
            return Type5CapabilityContainer(dataAreaSize: size, features: features)
        }
        return Type5CapabilityContainer(magic: 0xE2, dataAreaSize: size, features: features, length: 8)
    }

    /// Parses the first 4 or 8 bytes of the tag.
    /// - Throws: `.notNDEFFormatted` for another magic or a major version other than 1;
    ///   `.malformedReply` when an 8-byte CC is announced and fewer bytes are given.
    public init(bytes: [UInt8]) throws(TagError) {
        guard bytes.count >= 4 else { throw TagError.malformedReply("Type 5 CC of \(bytes.count) bytes") }
        guard bytes[0] == 0xE1 || bytes[0] == 0xE2 else {
            throw TagError.notNDEFFormatted("block 0 starts with \([bytes[0]].hexString), not the Type 5 magic E1/E2")
        }
        guard bytes[1] >> 6 == 1 else {
            throw TagError.notNDEFFormatted("Type 5 mapping version \(bytes[1] >> 6).\((bytes[1] >> 4) & 3) is not 1.x")
        }
        magic = bytes[0]
        version = bytes[1] & 0xF0
        readAccess = (bytes[1] >> 2) & 0x03
        writeAccess = bytes[1] & 0x03
        features = bytes[3]
        if bytes[2] == 0 {
            guard bytes.count >= 8 else { throw TagError.malformedReply("8-byte Type 5 CC cut at \(bytes.count) bytes") }
            dataAreaSize = (Int(bytes[6]) << 8 | Int(bytes[7])) * 8
            length = 8
        } else {
            dataAreaSize = Int(bytes[2]) * 8
            length = 4
        }
    }

    public var bytes: [UInt8] {
        let cc1 = version | readAccess << 2 | writeAccess
        if length == 8 {
            let mlen = dataAreaSize / 8
            return [magic, cc1, 0x00, features, 0x00, 0x00, UInt8(mlen >> 8), UInt8(mlen & 0xFF)]
        }
        return [magic, cc1, UInt8(dataAreaSize / 8), features]
    }

    public var supportsReadMultiple: Bool { features & 0x01 != 0 }
    public var supportsLockBlock: Bool { features & 0x08 != 0 }
    public var needsSpecialFrame: Bool { features & 0x10 != 0 }
    /// Any write access other than `0` makes the tag read-only for nfctap (as neard does).
    public var isWritable: Bool { writeAccess == 0 }
}
