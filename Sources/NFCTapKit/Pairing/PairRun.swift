import SafeText
import CoreNFCLinux
import Dispatch
import Foundation
import Pairing
import RecordOutput
import ZebraPrinter

/// One `nfctap pair`: waits for a printer's tap, hands its identity to the handler, then runs
/// the conversation the options asked for over the BlueZ link.
package struct PairRun: Sendable {
    package var handler: PairHandlerChoice
    package var pairingOptions: PairingOptions
    /// The conversation after pairing, in the order it runs (BlueZ only).
    package var requests: [PrinterRequest]
    /// Seconds to wait for a tap; 0 = no limit.
    package var timeout: Double
    package var dryRun: Bool
    package var json: Bool
    package var readers: DeskReaders

    package init(handler: PairHandlerChoice, pairingOptions: PairingOptions, requests: [PrinterRequest], timeout: Double,
                 dryRun: Bool, json: Bool, readers: DeskReaders) {
        self.handler = handler
        self.pairingOptions = pairingOptions
        self.requests = requests
        self.timeout = timeout
        self.dryRun = dryRun
        self.json = json
        self.readers = readers
    }

    /// - Throws: `CLIError`: 1 pairing or the conversation failed (or the Zebra tag is unusable),
    ///   2 no printer tag before the timeout, 3 no pcscd / no reader, 130 interrupted.
    package func run() async throws(CLIError) {
        let console = PairConsole()
        let waiter = PrinterTapWaiter(console: console, readerFilter: readers.filter,
                                      timeout: timeout == 0 ? nil : .milliseconds(Int64((timeout * 1000).rounded())),
                                      environment: readers.environment, operationTimeout: readers.operationTimeout)
        let phase = PairPhase(waiter: waiter, console: console)
        let trap = SignalTrap([SIGINT, SIGTERM, SIGHUP], queue: DispatchQueue(label: "nfctap.pair.signals")) { phase.interrupt($0) }
        defer { withExtendedLifetime(trap) {} }

        let identity: PrinterIdentity
        switch await waiter.wait() {
        case .printer(let found):
            identity = found
        case .unusable(let error):
            throw console.failure(PairTagVerdict.unusableZebra(error).message, status: ExitStatus.failure)
        case .interrupted:
            throw console.failure("interrupted", status: ExitStatus.interrupted)
        case .ended(let error):
            throw ended(error, console: console)
        }
        phase.tapDone()
        for line in PrinterIdentityJSON.lines(identity) { console.line(SafeText.escaped(line)) }

        var output = PairOutput(json: json, fields: [
            ("printer", PrinterIdentityJSON.object(identity)), ("handler", .string(handler.name)),
        ])
        let chosen: any PairingHandler
        do {
            chosen = try handler.makeHandler()  // checked by the command's validate()
        } catch {
            throw output.fail(Self.message(error), console: console)
        }
        if dryRun {
            let sentence = chosen.describe(identity, options: pairingOptions) + PairReport.plan(requests)
            output.add("dryRun", .string(sentence))
            if json { output.finish() } else { Stdout.line(sentence) }
            return
        }

        let result: PairingResult
        do {
            result = try chosen.pair(identity, options: pairingOptions)
        } catch {
            throw output.fail(Self.message(error), console: console)
        }
        output.add("result", PairReport.json(result))
        for line in PairReport.lines(result, identity: identity) { console.line(line) }
        if case .handedOff(let outcome) = result, !outcome.succeeded {
            throw output.fail("\(outcome.arguments[0]) exited with status \(outcome.exitStatus)", console: console)
        }

        if !requests.isEmpty, let bluez = chosen as? BlueZPairingHandler {
            try converse(over: bluez, identity: identity, output: &output, console: console)
        }
        output.finish()
    }

    /// Runs the requests over a link opened by the BlueZ handler, reporting each as it is done.
    private func converse(over bluez: BlueZPairingHandler, identity: PrinterIdentity, output: inout PairOutput,
                          console: PairConsole) throws(CLIError) {
        var set: [(String, JSONValue)] = []
        var variables: [(String, JSONValue)] = []
        var failure: String?
        do {
            let link = try bluez.openLink(to: identity, options: pairingOptions)
            defer { link.close() }
            let conversation = PrinterConversation(link: link)
            for request in requests {
                switch try conversation.perform(request) {
                case let .variableSet(name, value):
                    set.append((name, .string(value)))
                    console.line("Set \(name) to \"\(value)\"")
                case let .variable(name, value):
                    variables.append((name, .string(value)))
                    console.line("\(name) = \"\(SafeText.escaped(value))\"")
                case let .status(status):
                    output.add("status", PairReport.json(status))
                    for line in PairReport.lines(status) { console.line(line) }
                case .labelSent:
                    output.add("testLabel", .bool(true))
                    console.line("Sent the test label")
                }
            }
        } catch {
            failure = Self.message(error)
        }
        if !set.isEmpty { output.add("set", .object(set)) }
        if !variables.isEmpty { output.add("variables", .object(variables)) }
        if let failure { throw output.fail(failure, console: console) }
    }

    /// The session ended without a printer tag: timeout → 2, no reader or pcscd → 3, else 1.
    private func ended(_ error: NFCReaderError?, console: PairConsole) -> CLIError {
        guard let error else { return console.failure("interrupted", status: ExitStatus.interrupted) }
        switch error.code {
        case .readerSessionInvalidationErrorSessionTimeout:
            return console.failure("no printer tag was tapped within \(timeoutText) s", status: ExitStatus.noTag)
        case .readerErrorUnsupportedFeature, .readerSessionInvalidationErrorSessionTerminatedUnexpectedly:
            return console.failure(SafeText.escaped(error.message), status: ExitStatus.noReader)
        default:
            return console.failure(SafeText.escaped(error.message), status: ExitStatus.failure)
        }
    }

    private var timeoutText: String {
        timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
    }

    package static func message(_ error: any Error) -> String {
        SafeText.escaped((error as? PairingError)?.description ?? String(describing: error))
    }
}
