/// A bounds-checked reader over bytes: every read checks the remaining length first and throws
/// `NDEFError.truncated` instead of trapping.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func readByte(_ field: NDEFError.RecordField) throws(NDEFError) -> UInt8 {
        guard remaining >= 1 else {
            throw NDEFError.truncated(field: field, offset: offset, needed: 1, available: remaining)
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A big-endian 32-bit length (long records' PAYLOAD_LENGTH).
    mutating func readUInt32(_ field: NDEFError.RecordField) throws(NDEFError) -> UInt32 {
        guard remaining >= 4 else {
            throw NDEFError.truncated(field: field, offset: offset, needed: 4, available: remaining)
        }
        defer { offset += 4 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// `count` bytes; `count` is compared with what remains before any arithmetic on the offset.
    mutating func read(_ count: Int, _ field: NDEFError.RecordField) throws(NDEFError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw NDEFError.truncated(field: field, offset: offset, needed: count, available: remaining)
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
