import ArgumentParser
import Foundation
import NFCTapKit

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
            Dump.self,
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
    static func main() async {
        Foundation.exit(CommandEnd.status(after: await run(Array(CommandLine.arguments.dropFirst()))))
    }

    /// Runs the command `arguments` name; its exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        do {
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
