/// The MIFARE Application Directory (NXP AN10787): which application each sector holds. MAD1 sits
/// in sector 0's blocks 1–2 and covers sectors 1–15; a 4K adds MAD2 in sector 16's blocks 0–2 for
/// sectors 17–39. Each entry is two bytes as stored, application code then function cluster
/// (`03 E1` is NFC Forum NDEF, `00 00` free, `00 05` not applicable, `00 01`–`00 04` reserved).
public struct MifareApplicationDirectory: Equatable, Sendable {
    /// MAD version from the General Purpose Byte's ADV bits: 1 or 2.
    public let version: Int
    /// Sector → its entry, for sectors 1–15 (MAD1) and 17–39 (MAD2).
    public let entries: [Int: [UInt8]]
    /// The info byte's publisher sector (0: none).
    public let publisherSector: Int

    /// The NFC Forum NDEF application, as stored (AN1305 §6.1).
    public static let ndefEntry: [UInt8] = [0x03, 0xE1]

    /// - Parameters:
    ///   - gpb: byte 9 of sector 0's trailer (AN10787 §3.6: DA bit `80` = a MAD is there, ADV
    ///     bits 1–0 = its version).
    ///   - mad1: blocks 1 and 2 of sector 0 (32 bytes: CRC, info, 15 entries).
    ///   - mad2: blocks 0–2 of sector 16 (48 bytes: CRC, info, 23 entries), on a 4K with ADV 2.
    ///   - layout: the card, whose sector count bounds the entries.
    /// - Throws: `.notNDEFFormatted` when the GPB says there is no MAD; `.invalidTagData` for a
    ///   bad CRC, an unknown version, MAD2 on a card without sector 16, or a publisher sector
    ///   outside the directory.
    public init(gpb: UInt8, mad1: [UInt8], mad2: [UInt8]? = nil, layout: MifareClassicLayout) throws(TagError) {
        guard gpb & 0x80 != 0 else { throw TagError.notNDEFFormatted("sector 0 holds no MIFARE Application Directory (GPB \([gpb].hexString))") }
        let version = Int(gpb & 0x03)
        guard version == 1 || version == 2 else { throw TagError.invalidTagData("MAD version \(version) (GPB \([gpb].hexString))") }
        guard mad1.count == 32 else { throw TagError.invalidTagData("MAD1 of \(mad1.count) bytes, not 32") }
        try Self.checkCRC(mad1, name: "MAD1")
        var entries: [Int: [UInt8]] = [:]
        for sector in 1..<min(16, layout.sectorCount) { entries[sector] = Array(mad1[2 * sector ..< 2 * sector + 2]) }
        var publisher = Int(mad1[1] & 0x3F)
        guard publisher <= 15 else { throw TagError.invalidTagData("MAD1 names publisher sector \(publisher)") }
        if version == 2 {
            guard layout.sectorCount > 16 else { throw TagError.invalidTagData("a MAD2 on a card of \(layout.sectorCount) sectors") }
            guard let mad2, mad2.count == 48 else { throw TagError.invalidTagData("MAD2 of \(mad2?.count ?? 0) bytes, not 48") }
            try Self.checkCRC(mad2, name: "MAD2")
            for sector in 17..<layout.sectorCount { entries[sector] = Array(mad2[2 * (sector - 16) ..< 2 * (sector - 16) + 2]) }
            let second = Int(mad2[1] & 0x3F)
            guard second == 0 || (17..<layout.sectorCount).contains(second) else {
                throw TagError.invalidTagData("MAD2 names publisher sector \(second)")
            }
            if publisher == 0 { publisher = second }
        }
        self.version = version
        self.entries = entries
        self.publisherSector = publisher
    }

    /// The sectors holding NFC Forum NDEF, in order (AN1305 §6.1: the NDEF data runs through them).
    public var ndefSectors: [Int] { entries.keys.sorted().filter { entries[$0] == Self.ndefEntry } }

    /// The applications other than free and reserved entries: sector → entry (for `readers` and
    /// a card without NDEF).
    public var applications: [Int: [UInt8]] {
        entries.filter { _, entry in !(entry[1] == 0x00 && entry[0] <= 0x05) }
    }

    /// CRC-8 of AN10787 §5.1: polynomial x⁸ + x⁴ + x³ + x² + 1 (`1D`), preset `C7`, over every byte
    /// after the CRC byte itself.
    public static func crc(_ bytes: ArraySlice<UInt8>) -> UInt8 {
        var crc: UInt8 = 0xC7
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x1D : crc << 1 }
        }
        return crc
    }

    private static func checkCRC(_ bytes: [UInt8], name: String) throws(TagError) {
        let expected = crc(bytes[1...])
        guard bytes[0] == expected else {
            throw TagError.invalidTagData("\(name) CRC \([bytes[0]].hexString), its bytes give \([expected].hexString)")
        }
    }

    /// MAD1 (and on a 4K MAD2) for a card whose every sector but the MAD's holds NDEF, as
    /// AN1305 §6.2 formats it: info byte 01 (publisher sector 1, as NXP's own tools write it).
    public static func ndefFormatted(_ layout: MifareClassicLayout) -> (mad1: [UInt8], mad2: [UInt8]?) {
        var mad1: [UInt8] = [0x00, 0x01]
        for sector in 1..<16 { mad1 += sector < layout.sectorCount ? ndefEntry : [0x00, 0x00] }
        mad1[0] = crc(mad1[1...])
        guard layout.sectorCount > 16 else { return (mad1, nil) }
        var mad2: [UInt8] = [0x00, 0x00]
        for sector in 17..<40 { mad2 += sector < layout.sectorCount ? ndefEntry : [0x00, 0x00] }
        mad2[0] = crc(mad2[1...])
        return (mad1, mad2)
    }
}
