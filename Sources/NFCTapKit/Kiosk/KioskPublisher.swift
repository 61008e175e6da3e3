import Fleet
import Foundation
import Logging
import Synchronization

/// The kiosk's `"publish"`: a forwarder next to its output file, logging to the kiosk log.
package enum KioskPublisher {
    /// Starts the forwarder; nil without `"publish"`.
    /// - Throws: `FleetError` when there is no machine id.
    package static func start(_ configuration: KioskConfiguration, configPath: String?, logger: Logger) throws -> Forwarder? {
        guard let settings = configuration.publish, case let .file(path) = configuration.output else { return nil }
        if let configPath, let warning = settings.worldReadableWarning(configurationPath: configPath) {
            logger.warning("\(warning)")
        }
        let forwarder = Forwarder(configuration: settings.configuration(outbox: path, machineID: try StationIdentity.machineID()))
        forwarder.onLog = { level, message in
            switch level {
            case .info: logger.notice("\(message)")
            case .warning: logger.warning("\(message)")
            case .error: logger.error("\(message)")
            }
        }
        forwarder.start()
        let backlog = ForwarderMonitor(forwarder: forwarder, interval: .seconds(30)) { status in
            logger.info("mqtt backlog", metadata: [
                "state": "\(status.connection.rawValue)", "backlog": "\(status.backlogRecords)",
                "oldest_s": "\(status.oldestUnsentAge.map { String(format: "%.1f", $0) } ?? "-")",
                "published": "\(status.publishedSinceStart)",
            ])
        }
        monitor.withLock { $0 = backlog }
        return forwarder
    }

    /// Lives as long as the kiosk (set once, by the kiosk's start-up thread).
    private static let monitor = Mutex<ForwarderMonitor?>(nil)
}
