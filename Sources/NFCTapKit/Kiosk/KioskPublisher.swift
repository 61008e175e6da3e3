import Fleet
import Foundation
import Logging
import Synchronization

/// The kiosk's `"publish"`: a forwarder next to its output file, logging to the kiosk log.
/// A reload (SIGHUP) that changes `output` or `publish` stops the running forwarder (its position
/// is saved: what is left of the old file is published when it is configured again) and starts
/// one for the new file, saying so in the log.
package final class KioskPublisher: Sendable {
    private struct Running {
        var forwarder: Forwarder
        var settings: PublishSettings
        var path: String
        var monitor: ForwarderMonitor
    }

    private let logger: Logger
    private let running = Mutex<Running?>(nil)
    /// Makes the station id (tests give a fixed one).
    private let stationID: @Sendable () throws -> String

    private let softwareVersion: String

    package init(logger: Logger, softwareVersion: String,
                 stationID: @escaping @Sendable () throws -> String = { try StationIdentity.stationID() }) {
        self.logger = logger
        self.softwareVersion = softwareVersion
        self.stationID = stationID
    }

    /// The file being published, if any.
    package var publishedPath: String? { running.withLock { $0?.path } }

    /// Starts, replaces or stops the forwarder so that it matches `configuration`.
    /// - Throws: `FleetError` (no machine id, another forwarder on the file, a bad CA file); no
    ///   forwarder runs then.
    package func apply(_ configuration: KioskConfiguration, configPath: String?, reloading: Bool = false) throws {
        let wanted: (PublishSettings, String)?
        if let settings = configuration.publish, case let .file(path) = configuration.output {
            wanted = (settings, path)
        } else {
            wanted = nil
        }
        let current = running.withLock { $0.map { ($0.settings, $0.path) } }
        if let current, let wanted, current.0 == wanted.0, current.1 == wanted.1 { return }
        if current == nil, wanted == nil { return }
        if let old = running.withLock({ r -> Running? in defer { r = nil }; return r }) {
            old.monitor.cancel()
            // A Home Assistant config the new settings no longer announce is cleared, so that HA
            // keeps one tag scanner per station (docs/fleet.md).
            var retracting: [String] = []
            let was = old.forwarder.configuration
            if let discovery = was.homeAssistant {
                let oldTopic = discovery.configTopic(for: was)
                let newTopic = wanted.flatMap { settings, path in
                    settings.homeAssistant?.configTopic(for: settings.configuration(outbox: path, stationID: was.stationID))
                }
                if newTopic != oldTopic || wanted?.0.url.host != was.url.host || wanted?.0.url.port != was.url.port {
                    retracting.append(oldTopic)
                    logger.notice("Home Assistant: clearing the station's old tag scanner", metadata: ["config": "\(oldTopic)"])
                }
            }
            old.forwarder.stop(retracting: retracting)
            let reason = wanted == nil ? "no \"publish\" in the configuration now" : "the configuration changed"
            logger.notice("publishing stopped", metadata: ["file": "\(old.path)", "reason": "\(reason)",
                                                          "unpublished": "\(old.forwarder.status.backlogRecords)"])
        }
        guard let (settings, path) = wanted else { return }
        if let configPath, let warning = settings.worldReadableWarning(configurationPath: configPath) {
            logger.warning("\(warning)")
        }
        let forwarder = Forwarder(configuration: settings.configuration(outbox: path, stationID: try stationID(), softwareVersion: softwareVersion))
        let logger = self.logger
        forwarder.onLog = { level, message in
            switch level {
            case .info: logger.notice("\(message)")
            case .warning: logger.warning("\(message)")
            case .error: logger.error("\(message)")
            }
        }
        try forwarder.start()
        let monitor = ForwarderMonitor(forwarder: forwarder, interval: .seconds(30)) { status in
            logger.info("mqtt backlog", metadata: [
                "state": "\(status.connection.rawValue)", "backlog": "\(status.backlogRecords)",
                "oldest_s": "\(status.oldestUnsentAge.map { String(format: "%.1f", $0) } ?? "-")",
                "published": "\(status.publishedSinceStart)",
            ])
        }
        running.withLock { $0 = Running(forwarder: forwarder, settings: settings, path: path, monitor: monitor) }
        if reloading {
            logger.notice("publishing", metadata: ["file": "\(path)", "broker": "\(settings.url.redacted)", "topic": "\(settings.topic)"])
        }
    }

    /// Stops the forwarder, publishing for up to `drain` first.
    package func stop(drain: Duration) {
        guard let old = running.withLock({ r -> Running? in defer { r = nil }; return r }) else { return }
        old.monitor.cancel()
        old.forwarder.stop(drain: drain)
    }
}
