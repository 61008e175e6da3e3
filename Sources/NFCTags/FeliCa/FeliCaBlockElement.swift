/// Block-list elements and service codes (docs/tags-and-readers.md §9.2).
public enum FeliCaBlockElement {
    /// One element for `block` of the service at `serviceIndex` (0…15) in the service list:
    /// `80|i nn` (2 bytes) below block 256, else `0i lo hi` (3 bytes, little-endian number).
    public static func encode(block: Int, serviceIndex: Int = 0) -> [UInt8] {
        let index = UInt8(serviceIndex & 0x0F)
        if block < 256 { return [0x80 | index, UInt8(block)] }
        return [index, UInt8(block & 0xFF), UInt8((block >> 8) & 0xFF)]
    }

    /// Splits a block list into elements: (service index, access mode, block number) each.
    /// - Throws: `TagError.malformedReply` when an element is cut short.
    public static func decode(_ bytes: [UInt8], count: Int) throws(TagError) -> [(serviceIndex: Int, block: Int)] {
        var elements: [(Int, Int)] = []
        var index = 0
        for _ in 0..<count {
            guard index < bytes.count else { throw TagError.malformedReply("block list ends early") }
            let head = bytes[index]
            if head & 0x80 != 0 {
                guard index + 1 < bytes.count else { throw TagError.malformedReply("2-byte block element cut short") }
                elements.append((Int(head & 0x0F), Int(bytes[index + 1])))
                index += 2
            } else {
                guard index + 2 < bytes.count else { throw TagError.malformedReply("3-byte block element cut short") }
                elements.append((Int(head & 0x0F), Int(bytes[index + 1]) | Int(bytes[index + 2]) << 8))
                index += 3
            }
        }
        return elements
    }

    /// A service code as sent on the wire: 2 bytes, little-endian.
    public static func serviceCodeBytes(_ code: UInt16) -> [UInt8] { [UInt8(code & 0xFF), UInt8(code >> 8)] }
}

/// Service codes of the NFC Forum Type 3 mapping and of FeliCa Lite(-S) (docs/tags-and-readers.md §9.3).
public enum FeliCaServiceCode {
    /// Random read/write without a key: NDEF writes, Lite-S writes.
    public static let readWrite: UInt16 = 0x0009
    /// Random read-only without a key: NDEF reads, Lite-S reads.
    public static let readOnly: UInt16 = 0x000B
}

/// System codes (docs/tags-and-readers.md §9.3, §9.4).
public enum FeliCaSystemCode {
    /// Any system (polling only).
    public static let wildcard: [UInt8] = [0xFF, 0xFF]
    /// NFC Forum Type 3 Tag (NDEF).
    public static let ndef: [UInt8] = [0x12, 0xFC]
    /// FeliCa Lite / Lite-S.
    public static let lite: [UInt8] = [0x88, 0xB4]
    /// FeliCa common area.
    public static let common: [UInt8] = [0xFE, 0x00]
}
