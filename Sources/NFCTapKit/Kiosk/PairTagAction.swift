import CoreNFCLinux
import Logging
import NDEF
import Pairing
import ZebraPrinter

/// `"action": "pair"`: a Zebra printer tag goes to the configured `PairingHandler` (BlueZ, the
/// exec hook, or a JSON line to `output`); any other tag is refused (red) and logged.
/// Success = the handler paired / printed / its program exited 0.
package final class PairTagAction: KioskAction, Sendable {
    private let handler: any PairingHandler
    private let options: PairingOptions
    private let output: KioskOutput?

    package init(with target: KioskConfiguration.PairWith, options: PairingOptions, output: KioskConfiguration.Output, sync: Bool) throws {
        self.options = options
        switch target {
        case .bluez:
            handler = BlueZPairingHandler()
            self.output = nil
        case let .exec(arguments):
            handler = try ExecPairingHandler(arguments: arguments)
            self.output = nil
        case .json:
            let out = try KioskOutput.open(output, sync: sync)
            self.output = out
            // The handler's output closure cannot throw: the output keeps its write error.
            handler = JSONPairingHandler { line in out.write(keepingError: line) }
        }
    }

    /// For tests: any handler.
    package init(handler: any PairingHandler, options: PairingOptions) {
        self.handler = handler
        self.options = options
        self.output = nil
    }

    package func handle(_ report: NFCTagReport) -> KioskActionResult {
        guard report.completed else { return .failure("read incomplete, not paired") }
        guard let message = report.ndefMessage else {
            return .failure("not a Zebra printer tag (no NDEF message)")
        }
        let identity: PrinterIdentity
        do {
            guard let found = try ZebraTag.identity(from: message) else {
                return .failure("not a Zebra printer tag")
            }
            identity = found
        } catch {
            return .failure("not a usable Zebra printer tag: \(error)")
        }
        let printer: Logger.Metadata = ["serial": "\(identity.serial)"]
        do {
            _ = output?.takeWriteError()
            let result = try handler.pair(identity, options: options)
            if let error = output?.takeWriteError() { return .failure("\(error)", printer) }
            switch result {
            case let .paired(p): return .success("paired", printer.merging(["mac": "\(p.address)", "transport": "\(p.transport.rawValue)"]) { $1 })
            case let .alreadyPaired(p): return .success("already paired", printer.merging(["mac": "\(p.address)", "transport": "\(p.transport.rawValue)"]) { $1 })
            case .printed: return .success("identity written", printer)
            case let .handedOff(outcome):
                let meta = printer.merging(["status": "\(outcome.exitStatus)"]) { $1 }
                return outcome.succeeded ? .success("program succeeded", meta) : .failure("program failed with exit status \(outcome.exitStatus)", meta)
            }
        } catch {
            return .failure("\(error)", printer)
        }
    }

    package func close() { output?.close() }
}
