import ArgumentParser
import NFCTapKit

/// `nfctap fleet status FILE`: the published position of a record file and its backlog.
struct FleetStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "How many records of a file are not yet acknowledged by the broker, and how old the oldest is.",
        discussion: """
            Reads FILE and FILE.fleet-position (written by the forwarder); changes neither. \
            The oldest record's age comes from its "time" field (inventory records have one).
            Exit codes: 0 shown, 1 FILE unreadable or its position file invalid.
            """)

    @Argument(help: ArgumentHelp("The JSONL record file (inventory --output, the kiosk's output).", valueName: "file"))
    var file: String

    @Flag(help: "One JSON object on stdout instead of text.")
    var json = false

    func run() async throws {
        try FleetStatusReport.show(file: file, json: json)
    }
}
