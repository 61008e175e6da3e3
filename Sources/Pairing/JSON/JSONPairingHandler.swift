import Glibc
import ZebraPrinter

/// `--json`: prints the identity as one JSON line (see `IdentityJSON`) and does nothing else.
public struct JSONPairingHandler: PairingHandler {
    private let output: @Sendable (String) -> Void

    /// - Parameter output: where the line goes (without newline); default: stdout, flushed.
    public init(output: @escaping @Sendable (String) -> Void = { line in
        print(line)
        fflush(nil)   // all output streams: naming `stdout` is a shared global to Swift 6
    }) {
        self.output = output
    }

    public func pair(_ identity: PrinterIdentity, options: PairingOptions) throws -> PairingResult {
        let line = IdentityJSON.line(identity)
        output(line)
        return .printed(line)
    }

    public func describe(_ identity: PrinterIdentity, options: PairingOptions) -> String {
        "would print printer \(identity.serial) as one JSON line on stdout"
    }
}
