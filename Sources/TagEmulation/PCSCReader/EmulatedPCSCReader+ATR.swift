import NFCTags

extension EmulatedPCSCReader {
    /// The ATR a PC/SC Part 3 reader builds (docs/tags-and-readers.md §3):
    /// - storage card: `3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 NN NN 00 00 00 00 TCK`
    ///   (RID A0 00 00 03 06, standard 03 = ISO 14443A part 3, card name NN NN);
    /// - ISO 14443-4 card: `3B 8n 80 01 <n historical bytes from the ATS> TCK`.
    /// TCK is the XOR of every byte after `3B`.
    public static func atr(for tag: VirtualTag) -> [UInt8] {
        var atr: [UInt8]
        if let vicinity = tag as? VirtualISO15693Tag {
            // Standard byte 0B: ISO 15693 part 3 (docs/tags-and-readers.md §7.9).
            let name = vicinity.model.storageCardName
            atr = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x0B,
                   UInt8(name >> 8), UInt8(name & 0xFF), 0x00, 0x00, 0x00, 0x00]
        } else if let classic = tag as? VirtualMifareClassic {
            // Card name 00 01 Classic 1K, 00 02 4K, 00 26 Mini (docs/tags-and-readers.md §3).
            let name: UInt8 = classic.layout == .classic4K ? 0x02 : classic.layout == .mini ? 0x26 : 0x01
            atr = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, name, 0x00, 0x00, 0x00, 0x00]
        } else if tag is VirtualFeliCaCard {
            // Standard 11 = FeliCa 212 kbps, card name 00 3B (docs/tags-and-readers.md §9.1).
            atr = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x11, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x00]
        } else if let ats = tag.ats {
            let historical = Array(historicalBytes(ats: ats).prefix(15))
            atr = [0x3B, 0x80 | UInt8(historical.count), 0x80, 0x01] + historical
        } else {
            let product = (tag as? VirtualType2Tag)?.product ?? .unknown
            atr = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03]
                + storageCardName(product) + [0x00, 0x00, 0x00, 0x00]
        }
        atr.append(atr.dropFirst().reduce(0, ^))
        return atr
    }

    /// PC/SC Part 3 card names: `00 03` Ultralight (NTAG reports the same), `00 3A` Ultralight C,
    /// `00 3D` Ultralight EV1.
    static func storageCardName(_ product: Type2Product) -> [UInt8] {
        switch product {
        case .ultralightC: return [0x00, 0x3A]
        case .ultralightEV1MF0UL11, .ultralightEV1MF0UL21: return [0x00, 0x3D]
        default: return [0x00, 0x03]
        }
    }

    /// The historical bytes of an ATS (`TL T0 [TA] [TB] [TC] historical… [CRC]`): T0 bits 4-6 say
    /// which interface bytes follow; TL bounds the whole. Malformed input gives what is in bounds.
    static func historicalBytes(ats: [UInt8]) -> [UInt8] {
        guard ats.count >= 2 else { return [] }
        let end = min(Int(ats[0]), ats.count)
        let t0 = ats[1]
        let start = 2 + [0x10, 0x20, 0x40].filter { t0 & $0 != 0 }.count
        guard start < end else { return [] }
        return Array(ats[start ..< end])
    }
}
