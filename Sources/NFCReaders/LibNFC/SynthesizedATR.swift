import LibNFC
import NFCTags
import ReaderCore

/// PC/SC-style ATRs for tags seen through libnfc, so both backends describe a tag alike
/// (PC/SC Part 3 §3.1.3.2.3; docs/tags-and-readers.md §3).
enum SynthesizedATR {
    /// `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 TCK`: a storage card,
    /// SS `03` = ISO 14443A part 3 (`11` FeliCa 212, `12` 424; docs/tags-and-readers.md §9.1),
    /// NN NN the PC/SC card name.
    static func storageCard(cardName: [UInt8], standard: UInt8 = 0x03) -> [UInt8] {
        precondition(cardName.count == 2)
        let body: [UInt8] = [0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, standard]
            + cardName + [0x00, 0x00, 0x00, 0x00]
        return [0x3B] + body + [checkCharacter(body)]
    }

    /// `3B 8n 80 01 <n historical bytes> TCK`: an ISO 14443-4 card (at most 15 historical bytes).
    static func isoDEP(historicalBytes: [UInt8]) -> [UInt8] {
        let historical = Array(historicalBytes.prefix(15))
        let body: [UInt8] = [0x80 | UInt8(historical.count), 0x80, 0x01] + historical
        return [0x3B] + body + [checkCharacter(body)]
    }

    /// TCK: XOR of every byte after TS (`3B`).
    static func checkCharacter(_ bytes: [UInt8]) -> UInt8 { bytes.reduce(0, ^) }

    /// The PC/SC card name for a ISO 14443-3A SAK: `00 03` Ultralight (NTAG reports the same),
    /// `00 01` MIFARE Classic 1K, `00 02` Classic 4K, `00 26` MIFARE Mini, else `00 00`.
    static func cardName(sak: UInt8) -> [UInt8] {
        switch sak {
        case 0x00: return [0x00, 0x03]
        case 0x08: return [0x00, 0x01]
        case 0x18: return [0x00, 0x02]
        case 0x09: return [0x00, 0x26]
        default: return [0x00, 0x00]
        }
    }

    /// The historical bytes of an ATS given without its length byte TL (as libnfc stores it):
    /// T0, then TA/TB/TC when T0 bits 0x10/0x20/0x40 say so, then the historical bytes.
    /// Empty when the ATS is empty or shorter than T0 announces.
    static func historicalBytes(atsWithoutLength ats: [UInt8]) -> [UInt8] {
        guard let t0 = ats.first else { return [] }
        var index = 1
        for bit in [UInt8(0x10), 0x20, 0x40] where t0 & bit != 0 { index += 1 }
        guard index <= ats.count else { return [] }
        return Array(ats[index...])
    }

    /// What the radio layer knows about a target: its technology, ATR and historical bytes.
    static func describe(_ target: LibNFCTarget) -> (technology: TagTechnology, atr: [UInt8], historical: [UInt8]) {
        if let feliCa = target.feliCa {
            return (.feliCa, storageCard(cardName: [0x00, 0x3B], standard: feliCa.kbps == 424 ? 0x12 : 0x11), [])
        }
        if target.isISODEP {
            let historical = historicalBytes(atsWithoutLength: target.ats)
            return (.type4, isoDEP(historicalBytes: historical), historical)
        }
        let technology: TagTechnology = target.sak == 0x00 ? .type2 : MifareClassicLayout(sak: target.sak) != nil ? .mifareClassic : .other
        return (technology, storageCard(cardName: cardName(sak: target.sak)), [])
    }
}
