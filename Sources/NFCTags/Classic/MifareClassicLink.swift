import NDEF

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

extension MifareClassicKey {
    /// A key file in the dictionary format Proxmark, mfoc and Flipper Zero users share: one key of
    /// 12 hex digits per line, `#` starting a comment, blank lines ignored. Keys come back in the
    /// file's order, each once.
    /// - Throws: `MifareClassicKeyFileError` naming the first line that is not a key, or a file
    ///   of more than `maxKeys` keys.
    public static func dictionary(_ text: String) throws(MifareClassicKeyFileError) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        var seen = Set<[UInt8]>()
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let token = String(line.filter { !$0.isWhitespace })
            guard !token.isEmpty else { continue }
            guard token.utf8.count == 12, let key = [UInt8](hex: token), key.count == 6 else {
                throw MifareClassicKeyFileError(line: index + 1, reason: "not a key of 12 hex digits")
            }
            guard seen.insert(key).inserted else { continue }
            keys.append(key)
            guard keys.count <= maxKeys else { throw MifareClassicKeyFileError(line: index + 1, reason: "more than \(maxKeys) keys") }
        }
        return keys
    }

    /// Most keys a file may hold (Flipper's shipped dictionary has about 2,000).
    public static let maxKeys = 10_000
}

/// Why a MIFARE Classic key file was refused. The line's text is never repeated: it may hold a key.
public struct MifareClassicKeyFileError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let reason: String
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
    public var description: String { "line \(line): \(reason)" }
}
