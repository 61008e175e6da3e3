extension MifareClassicTag {
    /// Every sector the keys open (the well-known ones, then `extraKeys`), as Proxmark and Flipper
    /// dump a card: a sector trailer carries the key A that opened it (the card reads it back as
    /// zeros) and its key B where it was read or found; a byte nobody could read is nil. A sector
    /// is tried with key A, then key B (for blocks key A may not read, and for sectors key A does
    /// not open). Key B that the access bits let key A read cannot authenticate (MF1S50 §8.7.3):
    /// it is taken as read.
    /// - Throws: the link's errors other than a refused key (`.tagLost`, `.malformedReply`).
    public func dumpMemory() throws(TagError) -> MifareClassicMemory {
        // Key B is most often the transport key; then the keys B that opened other sectors.
        var keysB: [[UInt8]] = [MifareClassicKey.transport]
        var blocks = [[UInt8?]](repeating: [UInt8?](repeating: nil, count: MifareClassicLayout.blockSize), count: layout.blockCount)
        for sector in 0 ..< layout.sectorCount {
            let first = layout.firstBlock(ofSector: sector)
            let trailer = layout.trailer(ofSector: sector)
            var keyA: [UInt8]?
            var keyB: [UInt8]?
            if let key = try openingKey(sector, keyB: false, preferred: []) {
                keyA = key
                for block in first ... trailer {
                    if let data = try readOpen(block) { blocks[block] = data.map { $0 } }
                }
                if let access = blocks[trailer][6 ... 8].compactMap({ $0 }) as [UInt8]?, access.count == 3,
                   let bits = try? MifareClassicAccessBits(bytes: access), bits.keyAReadsKeyB {
                    keyB = blocks[trailer][10 ... 15].compactMap { $0 }
                } else {
                    blocks[trailer].replaceSubrange(10 ... 15, with: [UInt8?](repeating: nil, count: 6))
                }
            }
            if keyB == nil, let key = try openingKey(sector, keyB: true, preferred: keysB) {
                keyB = key
                if !keysB.contains(key) { keysB.insert(key, at: 0) }
                for block in first ... trailer where blocks[block].contains(nil) {
                    if let data = try readOpen(block) {
                        for i in 0 ..< 16 where blocks[block][i] == nil { blocks[block][i] = data[i] }
                    }
                }
                if keyA == nil { blocks[trailer].replaceSubrange(0 ... 5, with: [UInt8?](repeating: nil, count: 6)) }
            }
            if let keyA { blocks[trailer].replaceSubrange(0 ... 5, with: keyA.map { $0 }) }
            if let keyB { blocks[trailer].replaceSubrange(10 ... 15, with: keyB.map { $0 }) }
        }
        return MifareClassicMemory(layout: layout, blocks: blocks)
    }

    /// The key that opens `sector` as key A (or B), the sector left open with it; nil when none does.
    private func openingKey(_ sector: Int, keyB: Bool, preferred: [[UInt8]]) throws(TagError) -> [UInt8]? {
        do throws(TagError) {
            return try open(sector, preferred: preferred, keyB: keyB)
        } catch TagError.authenticationFailed {
            return nil
        }
    }

    /// A block of the open sector; nil when the access bits refuse it (the sector is reopened by
    /// the next `open`).
    private func readOpen(_ block: Int) throws(TagError) -> [UInt8]? {
        let data: [UInt8]
        do throws(TagError) {
            data = try link.readBlock(block)
        } catch TagError.status, TagError.nak, TagError.authenticationFailed {
            forgetAuthentication()
            return nil
        }
        guard data.count == MifareClassicLayout.blockSize else {
            throw TagError.malformedReply("block \(block) came back with \(data.count) bytes, not 16")
        }
        return data
    }
}
