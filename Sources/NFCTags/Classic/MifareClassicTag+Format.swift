extension MifareClassicTag {
    /// Makes a blank card NDEF-ready as NXP AN1305 §6 formats one: an empty NDEF message in the
    /// first NDEF sector, every other sector an NDEF sector (key A `D3 F7 D3 F7 D3 F7`, access bits
    /// `7F 07 88`, GPB `40`), the MAD (key A `A0…A5`, `78 77 88`, GPB `C1`, or `C2` with MAD2 in
    /// sector 16 of a 4K). Key B stays what it was (`FF…FF` on a card as sold): only well-known
    /// keys are ever written, so no tear can lock a sector with a key nobody has.
    ///
    /// The order makes a tear harmless: data first, then the NDEF sectors' trailers, then the
    /// MAD blocks, and last sector 0's trailer, whose GPB says "a MAD is here" — until that block
    /// is written the card reads as not formatted, and running the format again finishes it.
    /// - Throws: `.invalidTagData` for a card that is not blank (a MAD, or data in a data block:
    ///   an access badge is never overwritten); `.authenticationFailed(sector:)` for a sector no
    ///   known key opens; `.readOnly` when a trailer cannot be written with the keys at hand.
    public func format() throws(TagError) {
        let (mad1, mad2) = MifareApplicationDirectory.ndefFormatted(layout)
        let madSectors: Set<Int> = mad2 == nil ? [0] : [0, 16]
        let ndefSectors = (1 ..< layout.sectorCount).filter { !madSectors.contains($0) }
        let emptyMessage: [UInt8] = [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13)
        let firstNDEFBlock = layout.dataBlocks(ofSector: ndefSectors[0]).lowerBound
        var madBlocks: [Int: [UInt8]] = [1: Array(mad1[0 ..< 16]), 2: Array(mad1[16 ..< 32])]
        if let mad2 { for i in 0 ..< 3 { madBlocks[64 + i] = Array(mad2[i * 16 ..< (i + 1) * 16]) } }

        // Checked whole before the first write: every sector opens, and holds nothing but zeros
        // or what a format interrupted earlier wrote.
        var keyB: [Int: [UInt8]] = [:]
        for sector in 0 ..< layout.sectorCount {
            let trailer = try read(layout.trailer(ofSector: sector), preferred: [])
            if sector == 0, trailer[9] & 0x80 != 0 {
                throw TagError.invalidTagData("the card already has a MIFARE Application Directory: nfctap formats only blank cards")
            }
            for block in layout.dataBlocks(ofSector: sector) {
                let data = try read(block, preferred: [])
                let formatted = block == firstNDEFBlock ? emptyMessage : madBlocks[block] ?? [UInt8](repeating: 0, count: 16)
                guard data.allSatisfy({ $0 == 0 }) || data == formatted else {
                    throw TagError.invalidTagData("block \(block) (sector \(sector)) holds data: nfctap formats only blank cards")
                }
            }
            keyB[sector] = try keyBOpeningForFormat(sector)
        }
        try write(firstNDEFBlock, emptyMessage, preferred: [])
        for sector in ndefSectors {
            try writeTrailer(sector, MifareClassicKey.nfcForum + MifareClassicAccessBits.ndefReadWrite.bytes + [0x40] + keyB[sector]!)
        }
        for block in madBlocks.keys.sorted() { try write(block, madBlocks[block]!, preferred: []) }
        let gpb: UInt8 = mad2 == nil ? 0xC1 : 0xC2
        if mad2 != nil { try writeTrailer(16, MifareClassicKey.mad + MifareClassicAccessBits.madReadWrite.bytes + [gpb] + keyB[16]!) }
        try writeTrailer(0, MifareClassicKey.mad + MifareClassicAccessBits.madReadWrite.bytes + [gpb] + keyB[0]!)
        mad = nil
    }

    /// Key B of `sector`: read where key A reads it (transport access bits), else found by trying
    /// the known keys as key B.
    private func keyBOpeningForFormat(_ sector: Int) throws(TagError) -> [UInt8] {
        let trailer = try read(layout.trailer(ofSector: sector), preferred: [])
        let access = try MifareClassicAccessBits(bytes: Array(trailer[6 ... 8]))
        if access.keyAReadsKeyB { return Array(trailer[10 ... 15]) }
        return try keyBOpening(sector)
    }

    /// Writes a sector trailer with the key its access bits let write it: key A under the
    /// transport conditions (`001`, `000`), key B under AN1305's (`011`).
    private func writeTrailer(_ sector: Int, _ data: [UInt8]) throws(TagError) {
        let block = layout.trailer(ofSector: sector)
        let current = try read(block, preferred: [])
        let condition = try MifareClassicAccessBits(bytes: Array(current[6 ... 8])).conditions[3]
        switch condition {
        case 0b000, 0b001: try write(block, data, preferred: [])
        case 0b011: try write(block, data, preferred: [Array(data[10 ... 15])], keyB: true)
        default: throw TagError.readOnly
        }
    }
}
