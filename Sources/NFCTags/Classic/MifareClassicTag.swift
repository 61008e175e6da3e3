/// NDEF on a MIFARE Classic card (NXP AN1304/AN1305) over a `MifareClassicLink`: the MAD in
/// sector 0 (and 16 on a 4K with MAD2) names the NDEF sectors; their data blocks hold Type 2's
/// TLVs. Each sector is authenticated once per connection, with the well-known keys first
/// (`MifareClassicKey`), then `extraKeys` (a user's dictionary); only the blocks up to the NDEF
/// TLV's end are read. Writes are tear-safe as on Type 2 (docs/tags-and-readers.md §1): the
/// first block says "empty message" until every other block of the new message is written.
public final class MifareClassicTag: NDEFTagOperations {
    public let link: any MifareClassicLink
    public let layout: MifareClassicLayout
    /// Keys tried after the well-known ones, for key A and key B alike.
    public let extraKeys: [[UInt8]]
    /// The directory, once read.
    public internal(set) var mad: MifareApplicationDirectory?
    private var authenticated: (sector: Int, keyB: Bool, key: [UInt8])?
    /// Keys that opened a sector on this connection, first in line for the next.
    private var workingKeys: [[UInt8]] = []

    public init(link: any MifareClassicLink, layout: MifareClassicLayout, extraKeys: [[UInt8]] = []) {
        self.link = link
        self.layout = layout
        self.extraKeys = extraKeys.filter { $0.count == 6 }
    }

    // MARK: Sectors and blocks

    /// Authenticates `sector` unless it is the one open: `preferred` keys first (the key its role
    /// calls for), then keys that opened other sectors, the well-known ones and `extraKeys`.
    /// - Returns: the key that opened it (nil when it was open already).
    /// - Throws: `.authenticationFailed(sector:)` when none opens it.
    @discardableResult
    func open(_ sector: Int, preferred: [[UInt8]], keyB: Bool = false, only: Bool = false) throws(TagError) -> [UInt8]? {
        if let authenticated, authenticated.sector == sector, authenticated.keyB == keyB { return authenticated.key }
        authenticated = nil
        var tried: [[UInt8]] = []
        let candidates = only ? preferred
            : preferred + workingKeys + [MifareClassicKey.mad, MifareClassicKey.nfcForum, MifareClassicKey.transport] + extraKeys
        for key in candidates where !tried.contains(key) {
            tried.append(key)
            do throws(TagError) {
                try link.authenticate(block: layout.trailer(ofSector: sector), key: key, keyB: keyB)
            } catch TagError.authenticationFailed {
                continue
            }
            authenticated = (sector, keyB, key)
            if !workingKeys.contains(key) { workingKeys.insert(key, at: 0) }
            return key
        }
        throw TagError.authenticationFailed(sector: sector)
    }

    /// The next block access authenticates again (the card refused one and may have halted).
    func forgetAuthentication() { authenticated = nil }

    /// - Throws: `.invalidTagData` unless `block`'s sector is the one authenticated.
    func checkOpen(_ block: Int) throws(TagError) {
        guard let sector = layout.sector(ofBlock: block) else {
            throw TagError.invalidTagData("block \(block) lies beyond the \(layout.productName)'s \(layout.blockCount)")
        }
        guard authenticated?.sector == sector else {
            throw TagError.invalidTagData("block \(block) is in sector \(sector), which is not authenticated: authenticate it first")
        }
    }

    /// One block, its sector opened first.
    /// - Throws: `.malformedReply` for an answer that is not 16 bytes.
    func read(_ block: Int, preferred: [[UInt8]]) throws(TagError) -> [UInt8] {
        guard let sector = layout.sector(ofBlock: block) else { throw TagError.invalidTagData("block \(block) lies beyond the card") }
        try open(sector, preferred: preferred)
        let data = try link.readBlock(block)
        guard data.count == MifareClassicLayout.blockSize else {
            throw TagError.malformedReply("block \(block) came back with \(data.count) bytes, not 16")
        }
        return data
    }

    func write(_ block: Int, _ data: [UInt8], preferred: [[UInt8]], keyB: Bool = false) throws(TagError) {
        guard let sector = layout.sector(ofBlock: block) else { throw TagError.invalidTagData("block \(block) lies beyond the card") }
        try open(sector, preferred: preferred, keyB: keyB)
        try link.writeBlock(block, data)
    }

    // MARK: The directory and the NDEF area

    /// Reads MAD1 (sector 0's blocks 1–2 and the GPB in its trailer) and, when the GPB says so, MAD2.
    public func readDirectory() throws(TagError) -> MifareApplicationDirectory {
        if let mad { return mad }
        let key = [MifareClassicKey.mad]
        let mad1 = try read(1, preferred: key) + read(2, preferred: key)
        let gpb = try read(3, preferred: key)[9]
        var mad2: [UInt8]?
        if gpb & 0x80 != 0, gpb & 0x03 == 0x02, layout.sectorCount > 16 {
            mad2 = try read(64, preferred: key) + read(65, preferred: key) + read(66, preferred: key)
        }
        let parsed = try MifareApplicationDirectory(gpb: gpb, mad1: mad1, mad2: mad2, layout: layout)
        mad = parsed
        return parsed
    }

    public func ndefArea() throws(TagError) -> MifareClassicNDEFArea {
        try MifareClassicNDEFArea(mad: try readDirectory(), layout: layout)
    }

    // MARK: NDEFTagOperations

    public func readNDEF() throws(TagError) -> [UInt8] {
        let area = try ndefArea()
        let blocks = area.blocks
        var prefix: [UInt8] = []
        while true {
            switch try area.scan(prefix) {
            case let .message(offset, length):
                return Array(prefix[offset ..< offset + length])
            case .noMessage:
                throw TagError.notNDEFFormatted("the NDEF sectors hold no NDEF message TLV")
            case let .needMore(bytes):
                while prefix.count < bytes {
                    prefix += try read(blocks[prefix.count / MifareClassicLayout.blockSize], preferred: [MifareClassicKey.nfcForum])
                }
            }
        }
    }

    /// Read/write when the first NDEF sector's GPB grants writing (AN1305 §6.3.3: bits 1–0 `00`)
    /// and its access bits let key A write its data blocks; read-only otherwise.
    public func queryNDEFStatus() throws(TagError) -> (status: NDEFTagStatus, capacity: Int) {
        let area: MifareClassicNDEFArea
        do throws(TagError) {
            area = try ndefArea()
        } catch TagError.notNDEFFormatted {
            return (.notSupported, 0)
        }
        return (try isWritable(area) ? .readWrite : .readOnly, area.capacity)
    }

    private func isWritable(_ area: MifareClassicNDEFArea) throws(TagError) -> Bool {
        let trailer = try read(layout.trailer(ofSector: area.sectors[0]), preferred: [MifareClassicKey.nfcForum])
        let access = try MifareClassicAccessBits(bytes: Array(trailer[6...8]))
        return trailer[9] & 0x03 == 0x00 && access.keyAWrites(group: 0)
    }

    /// Writes the message's TLV (and a terminator) from the area's first block on: the first block
    /// says "empty" (`03 00 FE`) while the others are written, and gets its real bytes last. Every
    /// sector the message needs is opened (and its access bits read) before anything is written.
    public func writeNDEF(_ message: [UInt8]) throws(TagError) {
        let area = try ndefArea()
        guard try isWritable(area) else { throw TagError.readOnly }
        let image = try area.image(of: message)
        let used = min(area.size, message.count + (message.count < 0xFF ? 2 : 4) + 1)
        let count = (used + MifareClassicLayout.blockSize - 1) / MifareClassicLayout.blockSize
        let blocks = area.blocks
        func chunk(_ i: Int) -> [UInt8] { Array(image[i * 16 ..< (i + 1) * 16]) }
        let key = [MifareClassicKey.nfcForum]
        // Checked whole before the first byte: every other sector the message needs opens and
        // lets key A write (a refusal half-way would leave the first block saying "empty").
        let sectors = Set(blocks.prefix(count).compactMap(layout.sector(ofBlock:))).subtracting([area.sectors[0]])
        for sector in sectors.sorted().reversed() {
            let trailer = try read(layout.trailer(ofSector: sector), preferred: key)
            guard try MifareClassicAccessBits(bytes: Array(trailer[6...8])).keyAWrites(group: 0), trailer[9] & 0x03 == 0 else {
                throw TagError.invalidTagData("sector \(sector) of the NDEF area is read-only while sector \(area.sectors[0]) is not")
            }
        }
        if count > 1 {
            try write(blocks[0], [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13), preferred: key)
            for i in 1 ..< count { try write(blocks[i], chunk(i), preferred: key) }
        }
        try write(blocks[0], chunk(0), preferred: key)
    }

    /// AN1305 §6.3.2: every NDEF sector's trailer to `07 8F 0F` (data blocks read-only, the
    /// trailer frozen) with GPB `43`, keeping its keys; written with key B.
    public func writeLock() throws(TagError) {
        let area = try ndefArea()
        for sector in area.sectors {
            let trailer = layout.trailer(ofSector: sector)
            let current = try read(trailer, preferred: [MifareClassicKey.nfcForum])
            guard try MifareClassicAccessBits(bytes: Array(current[6...8])) != .ndefReadOnly else { continue }
            // Key A reads back as zeros: the NFC Forum key is what NDEF sectors use (AN1305 §6.3.1).
            let keyB = try keyBOpening(sector)
            let locked = MifareClassicKey.nfcForum + MifareClassicAccessBits.ndefReadOnly.bytes + [0x43] + keyB
            try write(trailer, locked, preferred: [keyB], keyB: true)
        }
    }

    /// Frozen trailers and never-writable data blocks: permanent (MF1S50 §8.7.2, condition 110).
    /// - Throws: `.unsupported` when no known key B opens the first NDEF sector.
    public func lockKind() throws(TagError) -> NDEFLockKind {
        let area = try ndefArea()
        do throws(TagError) {
            _ = try keyBOpening(area.sectors[0])
        } catch TagError.authenticationFailed {
            throw TagError.unsupported("locking: no known key B opens sector \(area.sectors[0]) (give it with --keys)")
        }
        return .permanent
    }

    /// The key B that opens `sector`.
    func keyBOpening(_ sector: Int) throws(TagError) -> [UInt8] {
        for key in [MifareClassicKey.transport] + extraKeys + workingKeys {
            do throws(TagError) {
                try link.authenticate(block: layout.trailer(ofSector: sector), key: key, keyB: true)
            } catch TagError.authenticationFailed {
                continue
            }
            authenticated = (sector, true, key)
            return key
        }
        authenticated = nil
        throw TagError.authenticationFailed(sector: sector)
    }
}
