import ArgumentParser
import NFCTapKit

/// `nfctap fleet`: records published to an MQTT broker (docs/fleet.md).
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Publish record files to an MQTT broker and see what is still waiting.",
        discussion: """
            `inventory --publish` and the kiosk's "publish" setting start the same forwarder next to \
            their record file; `fleet forward` runs it alone for a file another process writes, and \
            `fleet status` shows how much of a file is not yet acknowledged by the broker.
            """,
        subcommands: [FleetStatusCommand.self, FleetForwardCommand.self, FleetForgetStationCommand.self])
}
