import ArgumentParser
import Fleet
import Foundation
import NFCTapKit

/// `nfctap fleet forward FILE --publish URL`: the forwarder alone, for a file written elsewhere.
struct FleetForwardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward",
        abstract: "Publish a JSONL record file to an MQTT broker, following it as it grows, until SIGTERM/Ctrl-C.",
        discussion: """
            Publishes every complete record of FILE not yet acknowledged (FILE.fleet-position keeps the \
            position), then each record appended, QoS 1, in order, with a "recordId". Status lines on stderr.
            Rotations (logrotate create, mv) are followed without a signal; SIGHUP is ignored.
            Exit codes: 0 after SIGTERM/Ctrl-C, 1 bad URL, bad CA file, no machine id, or another forwarder on FILE.
            """)

    @Argument(help: ArgumentHelp("The JSONL record file.", valueName: "file"))
    var file: String

    @OptionGroup var publish: PublishOptions

    @Option(name: .customLong("status-every"), help: ArgumentHelp("Seconds between status lines while records wait.", valueName: "seconds"))
    var statusEvery: Double = 5

    /// Developer (tests, benchmark): seconds without PUBACK/CONNACK before the connection is remade.
    @Option(name: .customLong("ack-timeout"), help: .hidden)
    var ackTimeout: Double?

    /// Developer: longest wait between connection attempts, seconds.
    @Option(name: .customLong("retry-max"), help: .hidden)
    var retryMax: Double?

    func validate() throws {
        try Self.checkSeconds("--ack-timeout", ackTimeout)
        try Self.checkSeconds("--retry-max", retryMax)
        guard publish.url != nil else { throw ValidationError("--publish is required") }
        guard statusEvery.isFinite, statusEvery >= 0.1, statusEvery <= 86_400 else {
            throw ValidationError("--status-every must be from 0.1 to 86400 seconds")
        }
    }

    func run() async throws {
        guard let forwarder = try publish.startForwarder(outbox: file, statusEvery: statusEvery, tune: tune,
                                                         log: { Stderr.line($0) }) else { return }
        // SIGHUP (logrotate's postrotate) must not kill it: rotations are followed by themselves.
        _ = await SignalWaiter(ignoring: [SIGHUP]).next()
        forwarder.stop(drain: .seconds(1))
        Stderr.line("MQTT: " + forwarder.status.summary)
    }

    /// A hidden tuning option's bounds.
    private static func checkSeconds(_ name: String, _ value: Double?) throws {
        if let value, !(value.isFinite && value >= 0.1 && value <= 3600) { throw ValidationError("\(name) must be from 0.1 to 3600 seconds") }
    }

    private func tune(_ configuration: inout ForwarderConfiguration) {
        if let ackTimeout { configuration.ackTimeout = .milliseconds(Int64(ackTimeout * 1000)) }
        if let retryMax { configuration.retryMax = .milliseconds(Int64(retryMax * 1000)) }
    }
}
