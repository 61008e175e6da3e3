import NFCTags

/// One system of a virtual FeliCa card: its code, the IDm it answers with, its areas and services.
public struct VirtualFeliCaSystem: Sendable {
    public var code: [UInt8]
    public var idm: [UInt8]
    /// Area codes (node codes of areas; `0000` is the root area).
    public var areas: [UInt16]
    public var services: [VirtualFeliCaService]

    public init(code: [UInt8], idm: [UInt8], areas: [UInt16] = [0x0000], services: [VirtualFeliCaService]) {
        self.code = code
        self.idm = idm
        self.areas = areas
        self.services = services
    }
}

/// One service: its code (number << 6 | attribute, docs/tags-and-readers.md §9.2), which block
/// store it reaches (two services may share one, as `000B`/`0009` do on FeliCa Lite-S) and how
/// many blocks it has.
public struct VirtualFeliCaService: Sendable {
    public var code: UInt16
    public var store: Int
    public var blockCount: Int

    public init(code: UInt16, store: Int, blockCount: Int) {
        self.code = code
        self.store = store
        self.blockCount = blockCount
    }

    /// Attribute bit 1 set (`…B`, `…F`): read-only; `…9`, `…D`: read/write. Bit 0 clear: a key is
    /// needed, which this emulator never holds.
    public var isWritable: Bool { code & 0x01 == 0x01 && code & 0x02 == 0 }
    public var needsKey: Bool { code & 0x01 == 0 }
}

/// What a virtual FeliCa chip can do, by family (docs/tags-and-readers.md §9.4).
public struct VirtualFeliCaModel: Sendable {
    public var pmm: [UInt8]
    /// Command codes the chip answers; anything else gets no answer.
    public var commands: Set<UInt8>
    public var maxReadBlocks: Int
    public var maxWriteBlocks: Int
    /// FeliCa Lite(-S): user blocks and system blocks are write-protected by the MC block (`88`).
    public var liteMemoryControl: Bool

    /// FeliCa Lite-S RC-S966: Polling, Read and Write Without Encryption only; 4 blocks per read,
    /// 1 per write (docs/tags-and-readers.md §9.4).
    public static let liteS = VirtualFeliCaModel(
        pmm: [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00],
        commands: [FeliCaCommandCode.polling, FeliCaCommandCode.readWithoutEncryption, FeliCaCommandCode.writeWithoutEncryption],
        maxReadBlocks: 4, maxWriteBlocks: 1, liteMemoryControl: true)

    /// A FeliCa Standard transit IC (PMm IC code `0B`): every command of docs/tags-and-readers.md §9.2.
    public static let standardTransit = VirtualFeliCaModel(
        pmm: [0x10, 0x0B, 0x4B, 0x42, 0x84, 0x85, 0xD0, 0xFF],
        commands: [FeliCaCommandCode.polling, FeliCaCommandCode.requestService, FeliCaCommandCode.requestResponse,
                   FeliCaCommandCode.readWithoutEncryption, FeliCaCommandCode.writeWithoutEncryption,
                   FeliCaCommandCode.requestSystemCode, FeliCaCommandCode.requestServiceV2,
                   FeliCaCommandCode.requestSpecificationVersion, FeliCaCommandCode.resetMode],
        maxReadBlocks: 12, maxWriteBlocks: 8, liteMemoryControl: false)
}
