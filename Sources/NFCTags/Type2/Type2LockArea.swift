/// Bytes inside or after the data area that are not NDEF data: the dynamic lock bits named by a
/// Lock Control TLV, or bytes reserved by a Memory Control TLV (docs/tags-and-readers.md §1).
public struct Type2LockArea: Sendable, Hashable {
    /// Memory address of the first byte.
    public var address: Int
    /// Number of lock bits (Lock Control); for a reserved area, `byteCount * 8`.
    public var bitCount: Int
    /// Bytes each lock bit protects (BLPLB); 0 for a reserved (Memory Control) area.
    public var bytesPerLockBit: Int

    public init(address: Int, bitCount: Int, bytesPerLockBit: Int) {
        self.address = address
        self.bitCount = bitCount
        self.bytesPerLockBit = bytesPerLockBit
    }

    /// Bytes the area occupies.
    public var byteCount: Int { (bitCount + 7) / 8 }
    public var range: Range<Int> { address ..< address + byteCount }

    /// Decodes the 3-byte value `PP SS BB` of a Lock Control TLV (type 01):
    /// address = (PP >> 4) × 2^(BB & 0F) + (PP & 0F); SS lock bits (0 = 256); 2^(BB >> 4) bytes per bit.
    public init(lockControl value: [UInt8]) throws(TagError) {
        guard value.count == 3 else {
            throw TagError.invalidTagData("Lock Control TLV has length \(value.count), not 3")
        }
        let address = Self.address(value)
        self.init(address: address, bitCount: value[1] == 0 ? 256 : Int(value[1]),
                  bytesPerLockBit: 1 << Int(value[2] >> 4))
    }

    /// Decodes the 3-byte value `PP SS BB` of a Memory Control TLV (type 02): SS reserved bytes (0 = 256).
    public init(memoryControl value: [UInt8]) throws(TagError) {
        guard value.count == 3 else {
            throw TagError.invalidTagData("Memory Control TLV has length \(value.count), not 3")
        }
        let size = value[1] == 0 ? 256 : Int(value[1])
        self.init(address: Self.address(value), bitCount: size * 8, bytesPerLockBit: 0)
    }

    private static func address(_ value: [UInt8]) -> Int {
        let pageSize = 1 << Int(value[2] & 0x0F)
        return Int(value[0] >> 4) * pageSize + Int(value[0] & 0x0F)
    }

    /// The NFC Forum default when a tag with more than 48 data bytes has no Lock Control TLV:
    /// right after the data area, ceil((size − 48) / 8) bits, 8 bytes per bit.
    public static func nfcForumDefault(dataArea: Range<Int>) -> Type2LockArea? {
        let size = dataArea.count
        guard size > 48 else { return nil }
        return Type2LockArea(address: dataArea.upperBound, bitCount: (size - 48 + 7) / 8, bytesPerLockBit: 8)
    }

    /// The lock byte values with the first `bitCount` bits set (bit 0 of byte 0 first).
    public var lockedBytes: [UInt8] {
        (0 ..< byteCount).map { i in
            let bits = min(8, bitCount - i * 8)
            return bits >= 8 ? 0xFF : UInt8((1 << bits) - 1)
        }
    }
}
