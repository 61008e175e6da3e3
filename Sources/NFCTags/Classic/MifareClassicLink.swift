/// Block access to a MIFARE Classic card through a reader that does the Crypto1 part: a PC/SC
/// reader's Load Keys (`FF 82`) and General Authenticate (`FF 86`), or a PN53x's InDataExchange
/// with the key and UID. Each call is one exchange (a link may keep keys loaded for its connection).
public protocol MifareClassicLink: AnyObject {
    /// Authenticates the sector holding `block` with a 6-byte key, as key A or key B.
    /// - Throws: `.authenticationFailed(sector:)` when the card refuses the key.
    func authenticate(block: Int, key: [UInt8], keyB: Bool) throws(TagError)
    /// READ (`30`) of one 16-byte block of the sector last authenticated.
    func readBlock(_ block: Int) throws(TagError) -> [UInt8]
    /// WRITE (`A0`) of one 16-byte block of the sector last authenticated.
    func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError)
}

/// Keys of NDEF-formatted and blank cards (NXP AN1305 §6.2–6.3), tried in this order.
public enum MifareClassicKey {
    /// The MAD sectors' key A.
    public static let mad: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5]
    /// The NFC Forum NDEF sectors' key A.
    public static let nfcForum: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]
    /// The transport key of a blank card (key A and B).
    public static let transport: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
}
