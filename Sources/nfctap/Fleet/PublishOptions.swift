import SafeText
import ArgumentParser
import Fleet
import Foundation
import NFCTapKit
import Synchronization

/// `--publish URL` and `--mqtt-ca FILE` (inventory, fleet forward).
struct PublishOptions: ParsableArguments {
    @Option(name: .customLong("publish"),
            help: ArgumentHelp("Also publish every record to an MQTT broker: mqtt://[user[:pass]@]HOST[:PORT]/TOPIC or mqtts://… (TLS). The password may come from NFCTAP_MQTT_PASSWORD instead.", valueName: "url"))
    var url: String?

    @Option(name: .customLong("mqtt-ca"), help: ArgumentHelp("PEM file of the CA that signed the broker's certificate (mqtts). Default: the system's CAs.", valueName: "file"))
    var caFile: String?

    @Flag(name: .customLong("homeassistant"),
          help: "Announce the station to Home Assistant as an MQTT tag scanner (retained discovery config). Each tap goes to HA with HA's tag id or the uid; taps are held while HA is offline and sent once it is back (docs/fleet.md).")
    var homeAssistant = false

    @Option(name: .customLong("homeassistant-prefix"), help: ArgumentHelp("Home Assistant's discovery prefix.", valueName: "prefix"))
    var homeAssistantPrefix = "homeassistant"

    /// The forwarder for `outbox`, started, with its log and status lines going to `log`;
    /// nil without --publish.
    /// - Throws: `CLIError` for a bad URL, a missing machine id.
    func startForwarder(outbox: String, statusEvery: Double, tune: (inout ForwarderConfiguration) -> Void = { _ in },
                        log: @escaping @Sendable (String) -> Void) throws -> Forwarder? {
        guard let url else { return nil }
        // A broker that closes a TLS connection under a write gives EPIPE, never a killed station.
        signal(SIGPIPE, SIG_IGN)
        var settings: PublishSettings
        do {
            settings = try PublishSettings(url: url, caFile: caFile)
            if homeAssistant { settings.homeAssistant = try HomeAssistantDiscovery(prefix: homeAssistantPrefix) }
        } catch {
            throw CLIError("--publish: " + SafeText.escaped("\(error)"))
        }
        if let caFile {
            do { try CAFile.validate(caFile) } catch { throw CLIError("--mqtt-ca: " + SafeText.escaped("\(error)")) }
        }
        if settings.url.password != nil, getenv(PublishSettings.passwordVariable) == nil {
            log("nfctap: warning: the MQTT password on the command line is visible to other users (ps): prefer \(PublishSettings.passwordVariable)")
        }
        let stationID: String
        do {
            stationID = try StationIdentity.stationID()
        } catch {
            throw CLIError(SafeText.escaped("\(error)"))
        }
        var configuration = settings.configuration(outbox: outbox, stationID: stationID, softwareVersion: NFCTap.version)
        tune(&configuration)
        let forwarder = Forwarder(configuration: configuration)
        forwarder.onLog = { _, message in log(SafeText.escaped(message)) }
        do {
            try forwarder.start()
        } catch {
            throw CLIError(SafeText.escaped("\(error)"))
        }
        let monitor = ForwarderMonitor(forwarder: forwarder, interval: .milliseconds(Int64(statusEvery * 1000))) { status in
            log("MQTT: " + SafeText.escaped(status.summary))
        }
        Self.monitors.withLock { $0.append(monitor) }
        return forwarder
    }

    /// Monitors live as long as the process.
    private static let monitors = Mutex<[ForwarderMonitor]>([])
}
