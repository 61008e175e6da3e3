/// The memory of a MIFARE Classic card (NXP MF1S50 / MF1S70 datasheets §8.6): 16-byte blocks in
/// sectors, each sector's last block its trailer (key A, access bits, general purpose byte, key B).
/// Mini: 5 sectors of 4 blocks; 1K: 16 of 4; 4K: 32 of 4, then 8 of 16 (blocks 128–255).
public enum MifareClassicLayout: String, Sendable, CaseIterable {
    case mini, classic1K = "1k", classic4K = "4k"

    /// "MIFARE Classic 1K", "MIFARE Classic 4K", "MIFARE Mini".
    public var productName: String {
        switch self {
        case .mini: return "MIFARE Mini"
        case .classic1K: return "MIFARE Classic 1K"
        case .classic4K: return "MIFARE Classic 4K"
        }
    }

    /// Bytes per block.
    public static let blockSize = 16

    public var sectorCount: Int {
        switch self {
        case .mini: return 5
        case .classic1K: return 16
        case .classic4K: return 40
        }
    }

    public var blockCount: Int { firstBlock(ofSector: sectorCount - 1) + blocks(inSector: sectorCount - 1) }

    /// 4 blocks, or 16 in a 4K's sectors 32–39.
    public func blocks(inSector sector: Int) -> Int { sector < 32 ? 4 : 16 }

    public func firstBlock(ofSector sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }

    public func trailer(ofSector sector: Int) -> Int { firstBlock(ofSector: sector) + blocks(inSector: sector) - 1 }

    /// The sector a block lies in; nil beyond the card.
    public func sector(ofBlock block: Int) -> Int? {
        guard (0..<blockCount).contains(block) else { return nil }
        return block < 128 ? block / 4 : 32 + (block - 128) / 16
    }

    /// The data blocks of a sector (its trailer excluded; sector 0 also without block 0, the
    /// manufacturer block).
    public func dataBlocks(ofSector sector: Int) -> Range<Int> {
        let first = firstBlock(ofSector: sector)
        return (sector == 0 ? first + 1 : first) ..< trailer(ofSector: sector)
    }

    /// From a PC/SC Part 3 storage-card ATR's card name: `00 01` 1K, `00 02` 4K, `00 26` Mini.
    public init?(atr: [UInt8]) {
        guard let parsed = try? ATR(bytes: atr), case let .storageCard(_, name) = parsed.contactless else { return nil }
        switch name {
        case .mifareClassic1K: self = .classic1K
        case .mifareClassic4K: self = .classic4K
        case .mifareMini: self = .mini
        default: return nil
        }
    }

    /// From SAK (NXP AN10833 §3.2): `08` 1K, `18` 4K, `09` Mini (`88`, `28`, `38` are 1K/4K emulations).
    public init?(sak: UInt8) {
        switch sak {
        case 0x08, 0x88, 0x28: self = .classic1K
        case 0x18, 0x38: self = .classic4K
        case 0x09: self = .mini
        default: return nil
        }
    }
}
