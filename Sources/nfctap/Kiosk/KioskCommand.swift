import ArgumentParser
import Foundation
import Logging
import NFCTapKit

/// `nfctap kiosk`: handles every tap, for months, without a terminal (systemd/nfctap-kiosk.service).
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Handle every tag tapped on the readers, forever (a kiosk or a service).",
        discussion: """
            Every tag read goes to the configured action: "json" (one JSON line per tap to a file or stdout, the object `scan --json` prints), "exec" (a program with the tag as JSON on stdin and NFCTAP_* variables; no shell), or "pair" (Zebra printer tags to BlueZ, a program, or a JSON line). The action's success decides the reader's feedback: green + beep, or red.

            Readers and pcscd may come and go: the kiosk waits for them. If its session ends anyway it starts a new one after 0.5 s, doubling up to 10 s. Logs go to stderr, one event per line with journald priority prefixes (<6>…) and key=value fields.

            Without --config: every reader, "json" to stdout. Examples/kiosk.json documents the file.

            The "output" file: a symbolic link, FIFO, device or directory is refused ("-" is stdout); an existing file that is not the kiosk's JSON lines is refused and left untouched; a second process on the same file is refused, naming the PID holding it (an fcntl lock). A line that cannot be written (disk full) is cut back and the tap is red; a deleted or renamed file is replaced by a new one at the path before the next line. See docs/faults.md.

            "exec" programs (and "pairWith": "exec:…") run in their own process group, which is ended (SIGTERM, then SIGKILL 2 s later) when the program exits or times out: nothing started in the background outlives the tap.

            With "publish": {"url": "mqtt://…"} every line of the output file also goes to an MQTT broker, QoS 1, from the file (the outbox), nothing lost while the broker is away; the backlog is logged every 30 s while records wait (docs/fleet.md). A reload that changes "output" or "publish" publishes the new file from then on (logged as "publishing").

            Signals: SIGTERM / SIGINT finish the tag in hand and exit 0; SIGHUP reloads the configuration (an invalid one is logged and the running one kept) and reopens the output file (for logrotate).

            Exit status: 0 after SIGTERM/SIGINT, 1 when the configuration is invalid at start.
            """)

    @Option(name: .long, help: ArgumentHelp("The configuration file (JSON).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "No LED/buzzer feedback, whatever the configuration says.")
    var quiet = false

    @Flag(help: ArgumentHelp("Log every exchange with the readers to stderr (as \"trace\": true in the configuration).",
                             discussion: "The trace holds tag UIDs and data: look at it before sharing it."))
    var trace = false

    func run() async throws {
        // A program that exits without reading its stdin, or a closed stdout, must give EPIPE, not kill the kiosk.
        signal(SIGPIPE, SIG_IGN)
        var logger = KioskLog.logger()
        let configuration: KioskConfiguration
        do {
            configuration = try loadConfiguration()
        } catch {
            logger.critical("configuration invalid", metadata: ["error": "\(error)"])
            throw CLIError.reported(status: ExitStatus.failure)
        }
        logger.logLevel = configuration.logLevel
        if trace || configuration.trace { CommandTrace.start() }
        let runner: KioskRunner
        do {
            runner = try KioskRunner(configuration: configuration, logger: logger, quiet: quiet,
                                     dependencies: .system)
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw CLIError.reported(status: ExitStatus.failure)
        }
        let publisher = KioskPublisher(logger: logger, softwareVersion: NFCTap.version)
        do {
            try publisher.apply(configuration, configPath: config)
        } catch {
            logger.critical("cannot publish", metadata: ["error": "\(error)"])
            throw CLIError.reported(status: ExitStatus.failure)
        }
        let signals = DispatchQueue(label: "nfctap.kiosk.signals")
        let reloadLogger = logger
        let trap = SignalTrap([SIGINT, SIGTERM, SIGHUP], queue: signals) { number in
            if number == SIGHUP {
                var loaded: KioskConfiguration?
                let taken = runner.reload {
                    let fresh = try loadConfiguration()
                    loaded = fresh
                    return fresh
                }
                // A changed output or publish setting: the new file is published from now on.
                if taken, let loaded {
                    do {
                        try publisher.apply(loaded, configPath: config, reloading: true)
                    } catch {
                        reloadLogger.error("cannot publish the new output", metadata: ["error": "\(error)"])
                    }
                }
            } else {
                runner.stop(signal: number)
            }
        }
        // Logged once signals are handled: from here SIGHUP reloads and SIGTERM stops.
        logger.notice("kiosk starting", metadata: [
            "config": "\(config ?? "(none: defaults)")", "action": "\(configuration.actionName)",
            "version": "\(NFCTap.version)",
        ])
        await runner.run()
        withExtendedLifetime(trap) {}
        publisher.stop(drain: .seconds(1))
    }

    /// The file's configuration, or the defaults without `--config`.
    private func loadConfiguration() throws -> KioskConfiguration {
        guard let config else { return KioskConfiguration() }
        return try KioskConfiguration.load(path: config)
    }
}
