/// MIFARE Classic dumps in the other formats people publish them in, read as `TagDump`s:
/// - raw images: libnfc's `nfc-mfclassic` `.mfd`, Proxmark's `.bin` (320, 1024 or 4096 bytes,
///   block 0 first, the trailers holding the keys the tool used);
/// - text, one block of 32 hex digits per line: Proxmark's `.eml`, and MIFARE Classic Tool's
///   `.mct` with its `+Sector: N` headers and `-` for an unknown digit (a sector it could not
///   read is left out; here its bytes are unknown).
/// The card (Mini, 1K, 4K) follows from the number of blocks, or block 0's SAK and the highest sector; UID, SAK and
/// ATQA from block 0 (NXP MF1S50 §8.6.1: a 4-byte UID, its BCC, SAK, ATQA LSB first).
public enum MifareClassicDumpFiles {
    /// nil unless `bytes` is 320, 1024 or 4096 bytes long.
    public static func raw(_ bytes: [UInt8]) -> TagDump? {
        let layout: MifareClassicLayout
        switch bytes.count {
        case 320: layout = .mini
        case 1024: layout = .classic1K
        case 4096: layout = .classic4K
        default: return nil
        }
        let blocks = (0 ..< layout.blockCount).map { i in bytes[i * 16 ..< (i + 1) * 16].map { Optional($0) } }
        return dump(layout, blocks)
    }

    /// Proxmark `.eml` or MIFARE Classic Tool `.mct` text.
    /// - Throws: `TagDumpFileError` naming the line for a line that is neither a block nor a
    ///   header, a sector beyond a 4K, or a block count no card has.
    public static func text(_ text: String) throws(TagDumpFileError) -> TagDump {
        var bySector: [Int: [[UInt8?]]] = [:]
        var plain: [[UInt8?]] = []
        var sector: Int?
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("+Sector:") {
                guard let n = Int(line.dropFirst(8).trimmingWhitespace), (0 ..< 40).contains(n) else {
                    throw TagDumpFileError(line: index + 1, "a sector header naming no sector of a MIFARE Classic (0–39)")
                }
                sector = n
                bySector[n] = []
                continue
            }
            guard let block = MifareClassicMemory.block(hex: line) else {
                throw TagDumpFileError(line: index + 1, "a block line has 32 hex digits")
            }
            if let sector {
                guard bySector[sector]!.count < (sector < 32 ? 4 : 16) else {
                    throw TagDumpFileError(line: index + 1, "more blocks than sector \(sector) has")
                }
                bySector[sector]!.append(block)
            } else {
                plain.append(block)
            }
        }
        if !bySector.isEmpty {
            guard plain.isEmpty else { throw TagDumpFileError("blocks before the first +Sector header") }
            // The card: from block 0's SAK where sector 0 was read, else the highest sector (a 1K
            // unless a sector beyond 15 is there: MCT leaves unread sectors out).
            let highest = bySector.keys.max()!
            let sak = bySector[0].flatMap { $0.first?[5] } ?? nil
            var layout: MifareClassicLayout = highest < 16 ? .classic1K : .classic4K
            if let sak, let told = MifareClassicLayout(sak: sak), told.sectorCount > highest { layout = told }
            var blocks = [[UInt8?]](repeating: [UInt8?](repeating: nil, count: 16), count: layout.blockCount)
            for (sector, rows) in bySector {
                for (i, row) in rows.enumerated() { blocks[layout.firstBlock(ofSector: sector) + i] = row }
            }
            return dump(layout, blocks)
        }
        guard let layout = MifareClassicLayout.allCases.first(where: { $0.blockCount == plain.count }) else {
            throw TagDumpFileError("\(plain.count) blocks: a MIFARE Classic Mini, 1K or 4K has 20, 64 or 256")
        }
        return dump(layout, plain)
    }

    static func dump(_ layout: MifareClassicLayout, _ blocks: [[UInt8?]]) -> TagDump {
        let zero = blocks[0]
        var uid: [UInt8] = [0x00, 0x00, 0x00, 0x00]
        var sak: UInt8?
        var atqa: [UInt8]?
        if !zero.contains(nil) {
            let b = zero.map { $0! }
            if b[0] ^ b[1] ^ b[2] ^ b[3] == b[4] {
                uid = Array(b[0 ..< 4])
                sak = b[5]
                atqa = [b[7], b[6]]
            } else {
                uid = Array(b[0 ..< 7]) // a 7-byte UID: no BCC after four bytes
            }
        }
        return TagDump(uid: uid, atqa: atqa, sak: sak, memory: .mifareClassic(MifareClassicMemory(layout: layout, blocks: blocks)))
    }
}

extension Substring {
    var trimmingWhitespace: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return s
    }
}
