/// A tag in the field, as the radio sees it: anticollision answers and one frame in, one frame out.
///
/// Type 2 tags take native commands without CRC (`30 pp`, `3A s e`, `60`, `A2 pp d0..d3`) and
/// answer data, or a 4-bit ACK/NAK as one byte (`0A` ACK). Type 4 tags take ISO 7816 C-APDUs
/// and answer data + SW1 SW2. Front ends (the PC/SC reader personality behind vpcd, the PN532
/// emulator, the in-process transceivers) translate their protocol into these frames.
public protocol VirtualTag: AnyObject, Sendable {
    /// 4, 7 or 10 byte UID.
    var uid: [UInt8] { get }
    /// SENS_RES (ATQA) as the PN532 reports it, e.g. `00 44` for NTAG.
    var atqa: [UInt8] { get }
    /// SEL_RES (SAK): `00` Type 2, `20` ISO 14443-4.
    var sak: UInt8 { get }
    /// ATS including its length byte, for ISO 14443-4 tags; nil for Type 2.
    var ats: [UInt8]? { get }
    /// Answers one frame; nil = no answer (the tag is mute or the frame was not understood).
    func respond(to frame: [UInt8]) -> [UInt8]?
    /// The tag was (re)activated: clears a mute state and the selected application/file.
    func activate()
}
