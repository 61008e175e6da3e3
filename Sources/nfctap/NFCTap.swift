import ArgumentParser
import NFCTapKit

@main
struct NFCTap: ParsableCommand {
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
}
