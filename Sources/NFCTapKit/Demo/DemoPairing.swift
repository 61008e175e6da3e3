import Pairing
import ZebraPrinter

/// What `nfctap pair` would do with a printer identity, said without doing it.
package enum DemoPairing {
    /// `nfctap pair`'s default handler (BlueZ) with default options, asked to describe its plan:
    /// the transport and MAC it would use, then trust and connect. Touches no bus.
    package static func dryRun(_ identity: PrinterIdentity) -> String {
        BlueZPairingHandler().describe(identity, options: PairingOptions())
    }
}
