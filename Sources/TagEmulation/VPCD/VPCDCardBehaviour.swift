/// The card behind a `VPCDCard`: what it answers to vpcd's requests.
///
/// Called on the `VPCDCard`'s thread, one call at a time; Sendable because whoever made it keeps
/// it too. A nil ATR or a nil reply means the card is gone (the tag left the field): the client
/// closes the connection, which pcscd sees as a removal.
public protocol VPCDCardBehaviour: AnyObject, Sendable {
    /// The ATR pcscd reports for the card (vpcd asks for it about every 400 ms); nil = no card.
    var atr: [UInt8]? { get }
    /// Answers one C-APDU with data + SW1 SW2; nil = no answer (the tag left).
    func transmit(_ apdu: [UInt8]) -> [UInt8]?
    /// vpcd powered the card on (control `01`), or reset it (`02`: `powerOff()` then `powerOn()`).
    func powerOn()
    /// vpcd powered the card off (control `00`).
    func powerOff()
}

extension VPCDCardBehaviour {
    public func powerOn() {}
    public func powerOff() {}
}
