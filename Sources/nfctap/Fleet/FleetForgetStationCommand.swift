import ArgumentParser
import Fleet
import Foundation
import NFCTapKit
import SafeText

/// `nfctap fleet forget-station --publish URL`: removes this station from Home Assistant.
struct FleetForgetStationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget-station",
        abstract: "Remove this station from Home Assistant and clear its retained status on the broker.",
        discussion: """
            Publishes an empty retained message over the station's Home Assistant discovery config \
            (Home Assistant then deletes its tag scanner) and over its retained status. Give the same \
            --publish URL (and --homeassistant-prefix) the station used; stop the station first, or it \
            announces itself again when it reconnects.
            Exit codes: 0 done, 1 bad URL, no machine id, or the broker unreachable or refusing.
            """)

    @Option(name: .customLong("publish"), help: ArgumentHelp("The station's broker and records topic: mqtt://[user[:pass]@]HOST[:PORT]/TOPIC or mqtts://…", valueName: "url"))
    var url: String

    @Option(name: .customLong("mqtt-ca"), help: ArgumentHelp("PEM file of the CA that signed the broker's certificate (mqtts).", valueName: "file"))
    var caFile: String?

    @Option(name: .customLong("homeassistant-prefix"), help: ArgumentHelp("Home Assistant's discovery prefix.", valueName: "prefix"))
    var homeAssistantPrefix = "homeassistant"

    func run() throws {
        var settings: PublishSettings
        let stationID: String
        do {
            settings = try PublishSettings(url: url, caFile: caFile)
            settings.homeAssistant = try HomeAssistantDiscovery(prefix: homeAssistantPrefix)
            stationID = try StationIdentity.stationID()
        } catch {
            throw CLIError(SafeText.escaped("\(error)"))
        }
        // The object id depends on the station and the records topic only, not on the file.
        let configuration = settings.configuration(outbox: "forget-station", stationID: stationID, softwareVersion: NFCTap.version)
        let topics = [configuration.announcements.first?.topic, configuration.statusTopic].compactMap { $0 }
        do {
            try Retraction.clear(topics, configuration: configuration)
        } catch {
            throw CLIError("cannot clear the station on \(settings.url.redacted): " + SafeText.escaped("\(error)"))
        }
        for topic in topics { Stdout.line("cleared \(topic)") }
    }
}
