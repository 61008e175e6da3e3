import ArgumentParser
import Foundation
import NFCReaders
import NFCTapKit
import ReaderCore

@main
struct NFCTap: AsyncParsableCommand {
    /// From CHANGELOG.md, through the generated NFCTapVersion (scripts/lib/changelog.py).
    static let version = NFCTapVersion.string

    static let configuration = CommandConfiguration(
        commandName: "nfctap",
        abstract: "Read, write and pair with NFC tags through a USB reader (PC/SC or libnfc).",
        discussion: """
            Machine output goes to stdout (JSON with --json), messages to stderr.

            Exit codes: 0 success, 1 failure (bad input, unreadable tag, refused write),
            2 no tag before the timeout, 3 no pcscd / no reader, 64 usage error,
            130 interrupted.
            """,
        version: version,
        subcommands: [
            Scan.self,
            Write.self,
            APDUCommand.self,
            Decode.self,
            Kiosk.self,
            Doctor.self,
            FleetCommand.self,
            Inventory.self,
            Demo.self,
            Emulate.self,
            Pair.self,
            Readers.self,
            Agent.self,
        ]
    )

    /// Parses, runs, and ends the process the one way every command ends: errors printed once as
    /// `nfctap: error: …` (argument errors too, with the usage), help and version on stdout, and a
    /// failed write to stdout turning success into exit 1 (`CommandEnd`).
    ///
    /// Synchronous on purpose: an `async` main parks the main thread in `dispatch_main`, whose
    /// `pthread_exit` unwinds the thread's stack through the binary's unwind tables, 1.1 MiB of
    /// them made resident in every process (docs/architecture.md "Start-up"). Here the command
    /// runs as a task on the global executor and the main thread only waits; nothing of nfctap
    /// runs on the main queue or the main actor (sessions and signals have queues of their own).
    ///
    /// A plain `scan` opens its libnfc devices on this thread, which is otherwise idle, while the
    /// task parses the command and starts its session (`LibNFCOpenAhead`; docs/architecture.md
    /// "Opening ahead"). Only reading the list of devices comes before the open: the task is
    /// started from a helper thread, so that its first start (the concurrency runtime and
    /// libdispatch's first worker, about 0.3 ms) runs beside the open, not before it.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let opener = FastArguments.scanReaders(arguments).flatMap { readers in
            LibNFCOpenAhead.reserve()?.prepare(adding: ReaderSelection.libnfcDevices(in: readers))
        }
        let start: @Sendable () -> Void = {
            Task.detached {
                Foundation.exit(CommandEnd.status(after: await run(arguments)))
            }
        }
        if let opener {
            Thread.detachNewThread(start)
            opener.open()
        } else {
            start()
        }
        while true { pause() }
    }

    /// Runs the command `arguments` name; its exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        do {
            // `scan` and `fleet forward` with plain arguments skip the reflective parse (FastArguments),
            // and the cast below: a run-time `as? any AsyncParsableCommand` searches the binary's
            // conformance records (≈ 470,000 instructions in callgrind).
            if let fast = FastArguments.command(arguments) {
                try await fast.run()
                return ExitStatus.ok
            }
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return ExitStatus.ok
        } catch let error as CLIError {
            // An empty message was already shown by the command (a log line): only the status counts.
            if !error.message.isEmpty { Stderr.line(CLIError.line(error.message)) }
            return error.status
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .success {
                if !text.isEmpty { print(text) }  // --help, --version
            } else if !text.isEmpty {
                // ArgumentParser's "Error: …" in the one format, its usage lines after it.
                let message = text.hasPrefix("Error: ") ? String(text.dropFirst("Error: ".count)) : text
                Stderr.line(CLIError.line(message))
            }
            return code.rawValue
        }
    }
}
