/// The one seam every tag command goes through: bytes out, bytes back.
///
/// For ISO 7816 / Type 4 tags a command is a C-APDU and the reply is data + SW1 SW2.
/// Backends implement it (PC/SC `SCardTransmit`, libnfc `nfc_initiator_transceive_bytes`);
/// tests implement it with scripted replies or the emulated tags in `TagEmulation`.
/// Implementations throw `TagError` only (typed throws): a backend turns its native codes into
/// `TagError` inside `transceive` (docs/architecture.md "Errors").
public protocol Transceiver: AnyObject {
    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8]
}

/// The NFC Forum Type 2 command set, as far as a given reader lets it through.
///
/// PC/SC readers map these onto pseudo-APDUs (`FF B0`, `FF D6`, ACR122U direct transmit);
/// libnfc sends the native frames (`30`, `3A`, `A2`, `60`). Each call is one exchange.
public protocol Type2Link: AnyObject {
    /// READ (30h) from `page`: normally 16 bytes (4 pages); some readers return fewer
    /// (Identiv: 4). Callers must cope with any length from 1 to 16 and reject 0.
    func read(page: Int) throws(TagError) -> [UInt8]
    /// Most bytes a FAST_READ (3Ah) may return through this link; 0 if it cannot pass FAST_READ.
    var fastReadLimit: Int { get }
    /// FAST_READ (3Ah) of pages `start...end` (inclusive). Only called when `fastReadLimit` allows it.
    func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8]
    /// WRITE (A2h) of one 4-byte page.
    func write(page: Int, data: [UInt8]) throws(TagError)
    /// True when raw commands such as GET_VERSION (60h) pass through.
    var canSendRawCommands: Bool { get }
    /// GET_VERSION (60h): 8 bytes. Only called when `canSendRawCommands`. A tag that does not
    /// implement it (Ultralight, Ultralight C: NAK or mute) must be re-selected by the link, which
    /// then throws `.unsupported` or `.nak`; `.tagLost` only when the tag is really gone.
    func getVersion() throws(TagError) -> [UInt8]
    /// Any raw Type 2 frame (READ_SIG `3C 00`, READ_CNT, …) without CRC, and the tag's answer.
    /// Only meaningful when `canSendRawCommands`; the default throws `.unsupported`.
    func transceiveRaw(_ frame: [UInt8]) throws(TagError) -> [UInt8]
    /// An app asked for a raw frame (Core NFC's `sendMiFareCommand`): a link that passes none yet
    /// but may (a PC/SC reader nfctap does not know by name) starts trying its standard raw path,
    /// which the reader may still refuse. The default does nothing.
    func offerRawCommands()
}

extension Type2Link {
    public func offerRawCommands() {}

    public func transceiveRaw(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        throw TagError.unsupported("raw Type 2 commands through this link")
    }
}

/// What Core NFC's `NFCNDEFTag` offers, in bytes. Type 2 and Type 4 implement it.
public protocol NDEFTagOperations: AnyObject {
    /// NDEF status and capacity (the largest NDEF message, in bytes, the tag can hold).
    func queryNDEFStatus() throws(TagError) -> (status: NDEFTagStatus, capacity: Int)
    /// The raw NDEF message bytes; empty when the tag holds an empty NDEF message.
    func readNDEF() throws(TagError) -> [UInt8]
    /// Writes a whole NDEF message tear-safely (docs/tags-and-readers.md §1 and §2).
    func writeNDEF(_ message: [UInt8]) throws(TagError)
    /// Makes the tag read-only (`lockKind()` says whether for good).
    func writeLock() throws(TagError)
    /// What `writeLock()` would make of this tag through this reader, asked before anything is
    /// written (a `write --lock` checks it first).
    /// - Throws: `.unsupported` when this reader cannot pass the lock commands.
    func lockKind() throws(TagError) -> NDEFLockKind
}

/// What locking makes of a tag: said to the user only as the chip makes it.
public enum NDEFLockKind: Equatable, Sendable {
    /// The chip makes it permanent: nothing can write the tag again (Type 2 lock bits, Type 5
    /// Lock Block, FeliCa Lite(-S)'s MC block).
    case permanent
    /// The tag reports itself read-only, but a writer may undo it; why.
    case reversible(String)
}

/// Core NFC's `NFCNDEFStatus`, raw values included.
public enum NDEFTagStatus: UInt, Sendable {
    case notSupported = 1
    case readWrite = 2
    case readOnly = 3
}
