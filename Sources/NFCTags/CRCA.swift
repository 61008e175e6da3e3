/// ISO/IEC 14443-3 Type A CRC (CRC_A): CRC-16/ITU reflected, initial value 0x6363, no final XOR.
/// Returns the two CRC bytes in transmission order (low byte first), e.g. `30 00` → `02 A8`.
public func crcA(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var crc: UInt16 = 0x6363
    for byte in bytes {
        // ISO/IEC 14443-3 Annex B: bytewise update of the reflected polynomial 0x8408.
        var b = byte ^ UInt8(truncatingIfNeeded: crc)
        b ^= b << 4
        crc = (crc >> 8) ^ (UInt16(b) << 8) ^ (UInt16(b) << 3) ^ (UInt16(b) >> 4)
    }
    return [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
}

/// `frame` followed by its CRC_A.
public func appendingCRCA(_ frame: [UInt8]) -> [UInt8] { frame + crcA(frame) }

/// The frame without its trailing CRC_A, or nil when it is shorter than 2 bytes or the CRC_A is wrong.
public func strippingCRCA(_ frame: [UInt8]) -> [UInt8]? {
    guard frame.count >= 2 else { return nil }
    let body = Array(frame.dropLast(2))
    return crcA(body) == Array(frame.suffix(2)) ? body : nil
}
