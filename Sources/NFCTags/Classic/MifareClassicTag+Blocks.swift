extension MifareClassicTag {
    /// Authenticates `sector` with one key, as key A or key B (no other key is tried). The sector
    /// stays open for `readBlock` / `writeBlock` until another is authenticated.
    /// - Throws: `.invalidTagData` for a sector beyond the card or a key that is not 6 bytes;
    ///   `.authenticationFailed(sector:)` when the card refuses the key.
    public func authenticate(sector: Int, key: [UInt8], keyB: Bool = false) throws(TagError) {
        guard (0 ..< layout.sectorCount).contains(sector) else {
            throw TagError.invalidTagData("sector \(sector) lies beyond the \(layout.productName)'s \(layout.sectorCount)")
        }
        guard key.count == 6 else { throw TagError.invalidTagData("a MIFARE Classic key has 6 bytes, not \(key.count)") }
        forgetAuthentication()
        try open(sector, preferred: [key], keyB: keyB, only: true)
    }

    /// One 16-byte block of the sector last authenticated (`authenticate(sector:key:keyB:)`).
    /// - Throws: `.invalidTagData` when the block is not in that sector; the card's refusal
    ///   (`.status`) where the access bits deny it.
    public func readBlock(_ block: Int) throws(TagError) -> [UInt8] {
        try checkOpen(block)
        let data = try link.readBlock(block)
        guard data.count == MifareClassicLayout.blockSize else {
            throw TagError.malformedReply("block \(block) came back with \(data.count) bytes, not 16")
        }
        return data
    }

    /// Writes one 16-byte block of the sector last authenticated. A sector trailer is written as
    /// given: keys and access bits nobody keeps lock the sector for good.
    /// - Throws: `.invalidTagData` for data that is not 16 bytes, block 0, or a block outside the
    ///   open sector; the card's refusal where the access bits deny it.
    public func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError) {
        guard data.count == MifareClassicLayout.blockSize else { throw TagError.invalidTagData("a block has 16 bytes, not \(data.count)") }
        guard block != 0 else { throw TagError.invalidTagData("block 0 is the manufacturer block: it cannot be written") }
        try checkOpen(block)
        try link.writeBlock(block, data)
        mad = nil
    }
}
