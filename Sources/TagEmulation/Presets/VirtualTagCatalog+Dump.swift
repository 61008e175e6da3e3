import NFCTags

extension VirtualTagCatalog {
    /// The tag a dump describes (`nfctap emulate --dump`), answering as the dumped one did: the
    /// same pages, blocks and UID. Where the dump does not know a byte it stays unknowable: a
    /// MIFARE Classic key nobody found becomes a random secret (so its sector still opens to no
    /// key), unknown data bytes and unread pages read as zeros.
    public static func make(dump: TagDump) throws -> VirtualTag {
        switch dump.memory {
        case let .type2(m):
            let memory = m.pages.flatMap { $0 ?? [0, 0, 0, 0] }
            return try VirtualType2Tag(product: m.product, memory: memory)
        case let .mifareClassic(m):
            var generator = SystemRandomNumberGenerator()
            let blocks = m.blocks.enumerated().map { index, block -> [UInt8] in
                let isTrailer = m.layout.sector(ofBlock: index).map { m.layout.trailer(ofSector: $0) == index } ?? false
                guard isTrailer else { return block.map { $0 ?? 0 } }
                let secret = { (0 ..< 6).map { _ in UInt8.random(in: 0 ... 255, using: &generator) } }
                let keyA = block[0 ... 5].contains(nil) ? secret() : block[0 ... 5].map { $0! }
                let keyB = block[10 ... 15].contains(nil) ? secret() : block[10 ... 15].map { $0! }
                // Access bits nobody read: the transport conditions, behind keys nobody has.
                let access = block[6 ... 9].contains(nil) ? [0xFF, 0x07, 0x80, 0x69] : block[6 ... 9].map { $0! }
                return keyA + access + keyB
            }
            return VirtualMifareClassic(layout: m.layout, uid: dump.uid, blocks: blocks)
        case let .iso15693(m):
            let vendor = dump.uid.count == 8 ? dump.uid[1] : 0
            let model = ISO15693ChipModel(
                name: Type5Product(uid: dump.uid, icReference: m.icReference).description,
                blockSize: m.blockSize, blockCount: m.blocks.count, icReference: m.icReference,
                storageCardName: vendor == ISO15693Manufacturer.nxp ? 0x0014 : vendor == ISO15693Manufacturer.ti ? 0x0012 : 0x0000,
                maxReadMultipleBlocks: min(m.blocks.count, 32), supportsExtendedCommands: false,
                writeAnswersOnlyWithOption: vendor == ISO15693Manufacturer.ti,
                refusesOptionOnWrite: vendor == ISO15693Manufacturer.st)
            let locked = Set((m.security ?? []).indices.filter { m.security![$0] & 0x01 != 0 })
            return VirtualISO15693Tag(model: model, uid: dump.uid, memory: m.blocks.flatMap { $0 ?? [UInt8](repeating: 0, count: m.blockSize) },
                                      locked: locked, dsfid: m.dsfid ?? 0, afi: m.afi ?? 0)
        }
    }
}
