/// The Capability Container of a Type 2 tag: page 3, bytes 12-15 (docs/tags-and-readers.md §1).
///
/// `E1` magic | mapping version (major nibble must be 1) | data area size / 8 | access
/// (high nibble read, low nibble write: `0` granted, `F` none).
public struct Type2CapabilityContainer: Sendable, Hashable {
    /// The NDEF magic number in byte 0.
    public static let magic: UInt8 = 0xE1

    public var version: UInt8
    /// Byte 2: the data area size divided by 8.
    public var dataAreaSize: UInt8
    public var access: UInt8

    public init(version: UInt8, dataAreaSize: UInt8, access: UInt8) {
        self.version = version
        self.dataAreaSize = dataAreaSize
        self.access = access
    }

    /// Parses and validates the 4 CC bytes.
    /// - Throws: `TagError.notNDEFFormatted` when the magic is not `E1`, the major version is not 1
    ///   or read access is not granted; `TagError.invalidTagData` for a zero data area size or
    ///   fewer than 4 bytes.
    public init(bytes: [UInt8]) throws(TagError) {
        guard bytes.count == 4 else {
            throw TagError.invalidTagData("capability container has \(bytes.count) bytes, not 4")
        }
        guard bytes[0] == Self.magic else {
            throw TagError.notNDEFFormatted("CC magic is \([bytes[0]].hexString), not E1")
        }
        guard bytes[1] >> 4 == 1 else {
            throw TagError.notNDEFFormatted("NDEF mapping version \(bytes[1] >> 4).\(bytes[1] & 0x0F) is not supported")
        }
        guard bytes[2] != 0 else {
            throw TagError.invalidTagData("CC data area size is 0")
        }
        guard bytes[3] >> 4 == 0 else {
            throw TagError.notNDEFFormatted("CC read access \(String(bytes[3] >> 4, radix: 16, uppercase: true))h does not grant reading")
        }
        self.init(version: bytes[1], dataAreaSize: bytes[2], access: bytes[3])
    }

    public var bytes: [UInt8] { [Self.magic, version, dataAreaSize, access] }

    /// The data area in bytes (byte 2 × 8).
    public var dataAreaByteCount: Int { Int(dataAreaSize) * 8 }

    /// Memory addresses of the data area: it starts at page 4 (byte 16).
    public var dataArea: Range<Int> { 16 ..< 16 + dataAreaByteCount }

    /// Write access nibble `0`: writing granted. `F` is read-only; other values are proprietary and
    /// treated as read-only.
    public var isWritable: Bool { access & 0x0F == 0 }
}
