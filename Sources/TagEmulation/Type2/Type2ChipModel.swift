import NFCTags

/// The memory map of an emulated Type 2 chip, from the NXP datasheets (NTAG213/215/216,
/// MF0ICU1, MF0ICU2, MF0ULx1): sizes, which pages READ reaches, which pages are OTP or
/// configuration, and the factory content.
struct Type2ChipModel: Sendable {
    let product: Type2Product
    let totalPages: Int
    /// READ / FAST_READ address range (Ultralight C: the 3DES key pages 2Ch-2Fh are not readable).
    let readablePages: Int
    /// Pages that read as zeros (PWD, PACK).
    let zeroOnRead: Set<Int>
    /// Last user data page.
    let lastUserPage: Int
    /// Dynamic lock bits: position and what each bit protects (bit i: user bytes from 64 + i × bpb).
    let dynamicLock: Type2LockArea?

    init?(_ product: Type2Product) {
        guard let pages = product.totalPages, let user = product.userMemorySize else { return nil }
        self.init(product: product, totalPages: pages, userBytes: user)
    }

    /// NTAG213, for code paths that need a model without an optional.
    static let ntag213 = Type2ChipModel(product: .ntag213, totalPages: 45, userBytes: 144)

    private init(product: Type2Product, totalPages pages: Int, userBytes user: Int) {
        self.product = product
        totalPages = pages
        lastUserPage = 3 + user / 4
        dynamicLock = product.defaultDynamicLockArea
        switch product {
        case .ultralightC:
            readablePages = 0x2C
            zeroOnRead = []
        case .ultralight:
            readablePages = pages
            zeroOnRead = []
        default: // NTAG21x and Ultralight EV1 end with PWD and PACK
            readablePages = pages
            zeroOnRead = [pages - 2, pages - 1]
        }
    }

    var supportsGetVersion: Bool { product.versionBytes != nil }
    var supportsFastRead: Bool { product.supportsFastRead }

    /// Factory memory for a 7-byte UID: UID and check bytes, CC and TLVs as NXP ships them
    /// (NTAG21x formatted with `03 00 FE`, NTAG213 with its Lock Control TLV first; the
    /// Ultralight family blank, CC `00 00 00 00`), configuration pages at their defaults.
    func factoryMemory(uid: [UInt8]) -> [UInt8] {
        var m = [UInt8](repeating: 0, count: totalPages * 4)
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        m.replaceSubrange(0 ..< 12, with: [uid[0], uid[1], uid[2], bcc0, uid[3], uid[4], uid[5], uid[6], bcc1, 0x48, 0x00, 0x00])
        let configStart = (lastUserPage + 1) * 4
        switch product {
        case .ntag213, .ntag215, .ntag216:
            if let cc = product.capabilityContainer { m.replaceSubrange(12 ..< 16, with: cc.bytes) }
            let tlvs = product.formattedTLVs
            m.replaceSubrange(16 ..< 16 + tlvs.count, with: tlvs)
            // dynamic lock (byte 3 RFUI = BD), CFG0 (MIRROR 04, AUTH0 FF), CFG1 (ACCESS 00), PWD FF…, PACK 00
            m.replaceSubrange(configStart ..< configStart + 20, with:
                [0x00, 0x00, 0x00, 0xBD, 0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00,
                 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00])
        case .ultralightEV1MF0UL11, .ultralightEV1MF0UL21:
            let lockBytes = product == .ultralightEV1MF0UL21 ? 4 : 0
            m.replaceSubrange(configStart + lockBytes ..< configStart + lockBytes + 16, with:
                [0x00, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00])
        case .ultralightC:
            // lock bytes 2-3 and counter zero; AUTH0 30h (no protection), AUTH1 00;
            // 3DES key pages: the NXP default key "BREAKMEIFYOUCAN!" (never readable).
            m[0x2A * 4] = 0x30
            m.replaceSubrange(0x2C * 4 ..< 0x30 * 4, with: Array("BREAKMEIFYOUCAN!".utf8))
        case .ultralight, .unknown:
            break
        }
        return m
    }
}
