import Logging

/// The kiosk's logger: `JournalLogHandler` lines on stderr (or to `sink`).
package enum KioskLog {
    package static func logger(label: String = "nfctap.kiosk", level: Logger.Level = .info,
                       sink: @escaping @Sendable (String) -> Void = StandardErrorLines.write) -> Logger {
        var logger = Logger(label: label) { _ in JournalLogHandler(level: level, sink: sink) }
        logger.logLevel = level
        return logger
    }
}
