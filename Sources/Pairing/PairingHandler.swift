import ZebraPrinter

/// What `nfctap pair` does with a printer identity read from a tag: pair over BlueZ, hand it
/// to the user's program, or print it as JSON. Sendable: the agent and the kiosk hand a handler
/// to the thread that serves a tap.
public protocol PairingHandler: Sendable {
    /// Acts on the identity.
    /// - Throws: `PairingError` with a message that says what went wrong and what to do.
    func pair(_ identity: PrinterIdentity, options: PairingOptions) throws -> PairingResult

    /// One human sentence saying what `pair` would do, without doing it (`--dry-run`).
    func describe(_ identity: PrinterIdentity, options: PairingOptions) -> String
}
