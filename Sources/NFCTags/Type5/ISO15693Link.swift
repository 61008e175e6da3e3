/// How ISO 15693 (NFC-V) request frames reach a tag (docs/tags-and-readers.md §7).
///
/// A frame is what goes on air without SOF, CRC and EOF: request flags, command code, the UID
/// (LSB first) when the address flag is set, then the parameters. The answer is the tag's response
/// without CRC: response flags first (`01` = error, the next byte is the error code), then data.
/// Readers add and check the CRC themselves (PC/SC Part 3 transparent exchange, Core NFC).
///
/// Links that can only map some commands (a PC/SC reader without a transparent exchange: READ /
/// UPDATE BINARY) answer the others with `TagError.unsupported`.
public protocol ISO15693Link: AnyObject {
    /// The tag's UID, most significant byte first (`E0 mfr …`).
    var uid: [UInt8] { get }
    /// True when every frame reaches the tag (transparent exchange, in process). False when only
    /// Read Single Block and Write Single Block pass (PC/SC READ / UPDATE BINARY).
    var passesAnyCommand: Bool { get }
    /// One request frame out, the tag's response back.
    /// - Throws: `TagError` (`.unsupported` for a command this link cannot carry, `.tagLost`,
    ///   `.timeout`, `.status` for a reader status word).
    func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8]
}
