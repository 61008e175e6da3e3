import NFCTags

extension VirtualFeliCaCard {
    public static let defaultLiteSIDm: [UInt8] = [0x01, 0x2E, 0x4C, 0xD1, 0x0A, 0x1B, 0x2C, 0x3D]

    /// A FeliCa Lite-S RC-S966 (docs/tags-and-readers.md §9.4): system `88B4`, services `000B`
    /// (read) and `0009` (write) over one memory: user blocks `00`–`0D`, REG `0E`, RC…MC `80`–`88`,
    /// WCNT/MAC_A/STATE `90`–`92`, CRC_CHECK `A0`. With `ndef` it is NDEF formatted as nfcpy formats
    /// it: MC NDEF bit set (so it also answers system `12FC`), attribute block Ver 1.0, Nbr 4,
    /// Nbw 1, Nmaxb 13, read/write, holding `ndef`.
    public static func liteS(idm: [UInt8] = defaultLiteSIDm, ndef: [UInt8]? = []) -> VirtualFeliCaCard {
        var memory: [Int: [UInt8]] = [:]
        for block in Array(0x00...0x0E) + Array(0x80...0x88) + Array(0x90...0x92) + [0xA0] {
            memory[block] = [UInt8](repeating: 0, count: 16)
        }
        memory[0x82] = idm + [0, 0, 0, 0, 0, 0, 0, 0]                           // ID
        memory[0x83] = idm + VirtualFeliCaModel.liteS.pmm                       // D_ID
        memory[0x84] = [0x00, 0x0B, 0x00, 0x09] + [UInt8](repeating: 0, count: 12) // SER_C
        memory[0x85] = FeliCaSystemCode.lite + [UInt8](repeating: 0, count: 14)    // SYS_C
        // MC: blocks 00–0D writable, system blocks writable, NDEF bit.
        memory[0x88] = [0xFF, 0x3F, 0xFF, ndef == nil ? 0x00 : 0x01] + [UInt8](repeating: 0, count: 12)
        var systems = [VirtualFeliCaSystem(code: FeliCaSystemCode.lite, idm: idm, services: liteServices)]
        if let ndef {
            precondition(ndef.count <= 13 * 16, "a Lite-S holds 208 bytes of NDEF")
            memory[0] = Type3AttributeBlock(nbr: 4, nbw: 1, nmaxb: 13, length: ndef.count).bytes
            let padded = ndef + [UInt8](repeating: 0, count: (16 - ndef.count % 16) % 16)
            for (i, start) in stride(from: 0, to: padded.count, by: 16).enumerated() {
                memory[1 + i] = Array(padded[start..<(start + 16)])
            }
            systems.append(VirtualFeliCaSystem(code: FeliCaSystemCode.ndef, idm: idm, services: liteServices))
        }
        return VirtualFeliCaCard(model: .liteS, systems: systems, stores: [memory])
    }

    static let liteServices = [VirtualFeliCaService(code: FeliCaServiceCode.readOnly, store: 0, blockCount: 0x0F),
                               VirtualFeliCaService(code: FeliCaServiceCode.readWrite, store: 0, blockCount: 0x0F)]

    public static let defaultTransitIDm: [UInt8] = [0x01, 0x01, 0x12, 0x01, 0x2A, 0x0B, 0x3C, 0x4D]

    /// A FeliCa Standard card shaped like a Japanese transit card, without keys: system `0003`
    /// with the root area `0000`, card information `008B` (1 block), usage history `090F`
    /// (cyclic, 20 blocks) and gate history `108F` (cyclic, 3 blocks), all read-only without key,
    /// and a read/write service `1A89` (2 blocks); the common system `FE00` (IDm with system
    /// number 1) with service `1A8B` (1 block). Block contents are synthetic.
    public static func transitCard(idm: [UInt8] = defaultTransitIDm) -> VirtualFeliCaCard {
        func filled(_ count: Int, _ make: (Int) -> [UInt8]) -> [Int: [UInt8]] {
            Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, make($0)) })
        }
        let info = filled(1) { _ in [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xE8, 0x03, 0x00, 0x00, 0x21] }
        // History: terminal 16 (gate), process 01 (fare), date, stations, balance (LE), serial.
        let history = filled(20) { i in
            [0x16, 0x01, 0x00, 0x02, 0x33, UInt8(0x20 + i % 12), 0xE3, UInt8(0x30 + i), 0xE3, 0x38,
             UInt8((1000 - 10 * i) & 0xFF), UInt8((1000 - 10 * i) >> 8), 0x00, 0x00, UInt8(20 - i), 0x00]
        }
        let gates = filled(3) { i in [0xA0, 0x02, 0x00, 0x00, UInt8(i)] + [UInt8](repeating: 0, count: 11) }
        let scratch = filled(2) { _ in [UInt8](repeating: 0, count: 16) }
        let common = filled(1) { _ in [0x54, 0x52, 0x41, 0x4E, 0x53, 0x49, 0x54] + [UInt8](repeating: 0, count: 9) }
        var commonIDm = idm
        commonIDm[0] = (idm[0] & 0x0F) | 0x10
        let transit = VirtualFeliCaSystem(code: [0x00, 0x03], idm: idm, areas: [0x0000, 0x0040], services: [
            VirtualFeliCaService(code: 0x008B, store: 0, blockCount: 1),
            VirtualFeliCaService(code: 0x090F, store: 1, blockCount: 20),
            VirtualFeliCaService(code: 0x108F, store: 2, blockCount: 3),
            VirtualFeliCaService(code: 0x1A89, store: 3, blockCount: 2),
            VirtualFeliCaService(code: 0x1A8B, store: 3, blockCount: 2),
        ])
        let commonSystem = VirtualFeliCaSystem(code: FeliCaSystemCode.common, idm: commonIDm, services: [
            VirtualFeliCaService(code: 0x1A8B, store: 4, blockCount: 1),
        ])
        return VirtualFeliCaCard(model: .standardTransit, systems: [transit, commonSystem],
                                 stores: [info, history, gates, scratch, common])
    }

    // MARK: Hostile cards (tests)

    /// An NDEF Lite-S whose attribute block checksum is off by one.
    public static func liteSWithBadChecksum(ndef: [UInt8] = []) -> VirtualFeliCaCard {
        let card = liteS(ndef: ndef)
        var aib = card.block(0)!
        aib[15] &+= 1
        card.setBlock(0, to: aib)
        return card
    }

    /// An NDEF Lite-S whose Ln claims more bytes than its 13 blocks hold.
    public static func liteSWithOversizedLength() -> VirtualFeliCaCard {
        let card = liteS(ndef: [0xD0, 0x00, 0x00])
        card.setBlock(0, to: Type3AttributeBlock(nbr: 4, nbw: 1, nmaxb: 13, length: 13 * 16 + 1).bytes)
        return card
    }

    /// An NDEF Lite-S holding `ndef` whose reads of `block` answer status flags `01 A8`.
    public static func liteSFailingMidRead(ndef: [UInt8], block: Int) -> VirtualFeliCaCard {
        let card = liteS(ndef: ndef)
        card.refuseReads(of: [block])
        return card
    }
}
