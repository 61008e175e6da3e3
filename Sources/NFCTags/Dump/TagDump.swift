/// A tag's raw memory as `nfctap dump` read it, and as `nfctap emulate --dump` serves it again
/// (docs/dump.md). What could not be read is marked, never invented: a `nil` page or block, a
/// `nil` byte of a MIFARE Classic block (Flipper's `??`).
public struct TagDump: Sendable, Equatable {
    /// UID as the reader reports it (ISO 15693: MSB first, `E0` first).
    public var uid: [UInt8]
    /// ISO 14443-3A answers (Type 2, Classic); nil for ISO 15693 or when the reader hid them.
    public var atqa: [UInt8]?
    public var sak: UInt8?
    public var memory: Memory

    public enum Memory: Sendable, Equatable {
        case type2(Type2Memory)
        case mifareClassic(MifareClassicMemory)
        case iso15693(ISO15693Memory)
    }

    public init(uid: [UInt8], atqa: [UInt8]? = nil, sak: UInt8? = nil, memory: Memory) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.memory = memory
    }

    /// "NTAG215", "MIFARE Classic 1K", "ISO 15693 (80 × 4 bytes)".
    public var summary: String {
        switch memory {
        case let .type2(m): return m.product.description
        case let .mifareClassic(m): return m.layout.productName
        case let .iso15693(m): return "ISO 15693 (\(m.blocks.count) × \(m.blockSize) bytes)"
        }
    }
}

/// NFC Forum Type 2 (NTAG21x, MIFARE Ultralight): every page of the chip, page 0 first. Pages
/// the tag refused (behind a password) are nil; PWD and PACK read as zeros on the chip itself.
public struct Type2Memory: Sendable, Equatable {
    public var product: Type2Product
    /// GET_VERSION's 8 bytes, when the tag answered it.
    public var version: [UInt8]?
    /// READ_SIG's 32 bytes (NXP's originality signature), when the tag answered it.
    public var signature: [UInt8]?
    public var pages: [[UInt8]?]

    public init(product: Type2Product, version: [UInt8]? = nil, signature: [UInt8]? = nil, pages: [[UInt8]?]) {
        self.product = product
        self.version = version
        self.signature = signature
        self.pages = pages
    }

    /// Pages read from page 0 on without a gap (Flipper's "Pages read").
    public var pagesRead: Int { pages.firstIndex(where: { $0 == nil }) ?? pages.count }
}

/// MIFARE Classic: every block, 16 bytes each; a byte nobody could read (a sector no key opened,
/// a key the card never shows) is nil. Sector trailers carry the keys that opened them.
public struct MifareClassicMemory: Sendable, Equatable {
    public var layout: MifareClassicLayout
    public var blocks: [[UInt8?]]

    public init(layout: MifareClassicLayout, blocks: [[UInt8?]]) {
        self.layout = layout
        self.blocks = blocks
    }

    /// One block as dump files write it: 32 hex digits, `??` (Flipper, nfctap) or `--` (MIFARE
    /// Classic Tool) for a byte nobody read. nil for anything else.
    public static func block(hex text: some StringProtocol) -> [UInt8?]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 32 else { return nil }
        var block: [UInt8?] = []
        for i in stride(from: 0, to: 32, by: 2) {
            let pair = String(decoding: utf8[i ..< i + 2], as: UTF8.self)
            if pair == "??" || pair == "--" { block.append(nil); continue }
            guard let byte = UInt8(pair, radix: 16) else { return nil }
            block.append(byte)
        }
        return block
    }

    /// Sectors with at least one unknown byte.
    public var unreadSectors: [Int] {
        (0 ..< layout.sectorCount).filter { sector in
            let first = layout.firstBlock(ofSector: sector)
            return blocks[first ..< first + layout.blocks(inSector: sector)].contains { $0.contains(nil) }
        }
    }
}

/// ISO 15693 (NFC Forum Type 5): the blocks, their security status (1 locked) and what Get System
/// Info told.
public struct ISO15693Memory: Sendable, Equatable {
    public var dsfid: UInt8?
    public var afi: UInt8?
    public var icReference: UInt8?
    public var blockSize: Int
    public var blocks: [[UInt8]?]
    /// One byte per block (`01` locked); nil when the reader passes no Get Multiple Block Security Status.
    public var security: [UInt8]?

    public init(dsfid: UInt8? = nil, afi: UInt8? = nil, icReference: UInt8? = nil, blockSize: Int,
                blocks: [[UInt8]?], security: [UInt8]? = nil) {
        self.dsfid = dsfid
        self.afi = afi
        self.icReference = icReference
        self.blockSize = blockSize
        self.blocks = blocks
        self.security = security
    }
}

/// Why a dump file was refused. `line` is 1-based; the file's own text is never repeated.
public struct TagDumpFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int?
    public let reason: String
    public init(line: Int? = nil, _ reason: String) {
        self.line = line
        self.reason = reason
    }
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}
