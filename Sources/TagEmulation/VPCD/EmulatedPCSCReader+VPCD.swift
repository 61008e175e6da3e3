/// The emulated reader is what a vpcd card serves: pcscd sees the reader personality's ATR and
/// every pseudo-APDU/APDU goes through its fault plan to the virtual tag.
extension EmulatedPCSCReader: VPCDCardBehaviour {
    /// vpcd reset/power-on: the tag re-enters the field (clears a muted Type 2 tag's state).
    public func powerOn() { reset() }
}
