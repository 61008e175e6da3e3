/// How each PC/SC reader family reaches ISO 15693 tags (docs/tags-and-readers.md §7.10).
extension PCSCReaderProfile {
    public enum ISO15693Path: String, Sendable, Hashable {
        /// The reader has no ISO 15693 radio (ACR122U: a PN532, whose modulations have no ISO 15693).
        case none
        /// PC/SC Part 3 transparent exchange: `FF C2 00 00 02 81 00` start, `FF C2 00 02 04 8F 02 02 03`
        /// switch to ISO 15693 layer 3, `FF C2 00 01 Lc 95 len frame 00` per frame (an ACR1552 trace
        /// with ICODE SLI), `FF C2 00 00 02 82 00` end. Falls back to READ / UPDATE BINARY when refused.
        case transparentExchange
        /// Block READ BINARY `FF B0 00 blk 00` / UPDATE BINARY `FF D6 00 blk Lc data` only (OMNIKEY
        /// AViatoR ISO 15693 sample; SpringCard's block mapping). No Get System Info, no Lock Block.
        case readBinary
    }

    /// ACR122U: none. Every other family tries the transparent exchange first (OMNIKEY 5022/5422
    /// parse `FF C2`; ACR1552, uTrust 3700 F, SpringCard implement PC/SC Part 3), including
    /// readers nfctap does not recognise by name, and falls back to block reads when it is refused
    /// (the refusal is remembered per reader, `PCSCReaderRegistry`).
    public var iso15693Path: ISO15693Path {
        switch family {
        case .acr122u: return .none
        case .acr1252u, .identiv, .omnikey, .springcard, .generic:
            return rawCommandsRefused ? .readBinary : .transparentExchange
        }
    }

    /// The reader can reach an ISO 15693 tag at all.
    public var canReadISO15693: Bool { iso15693Path != .none }

    /// Readers users can buy for ISO 15693 tags, for messages.
    public static let iso15693ReaderHint = "an ISO 15693 reader such as an HID OMNIKEY 5022/5422, ACS ACR1552U, Identiv uTrust 3700 F or a SpringCard coupler"
}

/// An ISO 15693 UID as PC/SC GET DATA (`FF CA 00 00 00`) returns it: the byte order is not
/// documented, so a reply ending in `E0` (LSB first, as on air) is reversed and one starting with
/// `E0` is kept (docs/tags-and-readers.md §7.10).
public enum ISO15693UID {
    public static func normalized(_ uid: [UInt8]) -> [UInt8] {
        guard uid.count == 8 else { return uid }
        if uid[0] == 0xE0 { return uid }
        if uid[7] == 0xE0 { return uid.reversed() }
        return uid
    }
}
