import SafeText
import ArgumentParser
import CoreNFCLinux
import Dispatch
import Fleet
import Foundation
import NFCTapKit
import ReaderCore
import Synchronization

/// `nfctap inventory`: records every tap on every reader, one record per tag per tap, each on
/// disk before the reader confirms it.
struct Inventory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inventory",
        abstract: "Record every tag tapped on the readers: one record per tap, on disk before the beep.",
        discussion: """
            Reads tags on every reader (or those matching --reader) until Ctrl-C, SIGTERM or --timeout.
            Readers may be plugged in and out, and pcscd restarted, while it runs.

            One record per tag per tap (a tag left on the reader is one tap): seq (numbering goes on
            in a file appended to), time (ISO 8601 UTC
            with milliseconds), uid, type, product, reader, summary (the first URI or text on the
            tag), zebraSerial, duplicate, error. JSON Lines by default, or CSV (RFC 4180, a header
            line once) with --format csv or an --output ending in .csv.

            Each record is appended and synced to disk (fsync) before the reader's green light and
            beep and the "✓ #n UID" line: a crash or power cut loses no confirmed tap. When appending
            to a file that ends with a partial record (a write cut short, never confirmed), the
            partial record is cut off first, with a warning. A tap of a UID already recorded less
            than --duplicate-window seconds before is kept and marked "duplicate": true. A tag that
            could not be read to the end is recorded with its error, and the reader shows red.

            The output file (see docs/faults.md): a symbolic link, a FIFO, a device or a directory is
            refused ("-" means stdout); an existing file that is not recognisably an nfctap inventory
            in this format is refused and left untouched; a second process writing the same file is
            refused at the start, naming the process that holds it (an fcntl lock). A record that
            cannot be written (disk full, I/O error) is cut back, the reader shows red and the
            inventory stops (exit 1). If the file is deleted or renamed while running, the next
            record goes to a new file at the same path; SIGHUP does the same at once (logrotate).
            CSV cells starting with =, +, -, @, a tab or a CR get a leading ' (OWASP CSV injection:
            a spreadsheet would run them as formulas); JSON Lines are never altered.

            Without --output the records go to stdout. On exit a summary goes to stderr.
            Signals: SIGINT/SIGTERM end the inventory; SIGHUP reopens --output (logrotate).
            Exit codes: 0 when ended by Ctrl-C/SIGTERM or --timeout (the normal end of an
            inventory; a second Ctrl-C exits 130 at once), 1 when a record cannot be written or
            --output is unusable, 3 no pcscd / no (matching) reader at the start. Readers unplugged
            later, or pcscd restarting, do not end it.

            With --publish (and a JSON Lines --output) every record is also published to an MQTT broker, \
            QoS 1, with a "recordId"; the file stays the outbox: a record is confirmed once on disk, and \
            records wait there while the broker is away (docs/fleet.md). A status line every 10 s \
            shows the backlog while records wait.
            """)

    @Option(name: [.short, .long], help: ArgumentHelp("Append records to this file (created if missing; its directory must exist). Default: stdout.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("jsonl or csv. Default: csv for an --output ending in .csv, else jsonl.", valueName: "format"))
    var format: InventoryFormat?

    @OptionGroup var readerOptions: ReaderOptions

    @Option(name: .customLong("duplicate-window"),
            help: ArgumentHelp("Mark a tap of a UID seen less than this many seconds before as a duplicate (0: never).", valueName: "seconds"))
    var duplicateWindow: Double = 5

    @Option(help: ArgumentHelp("End the inventory after this many seconds. Default: run until Ctrl-C.", valueName: "seconds"))
    var timeout: Double?

    @OptionGroup var publish: PublishOptions

    /// Longest --timeout / --duplicate-window accepted (about 31 years): keeps Duration arithmetic exact.
    static let maxSeconds = 1e9

    func validate() throws {
        guard duplicateWindow.isFinite, duplicateWindow >= 0, duplicateWindow <= Self.maxSeconds else {
            throw ValidationError("--duplicate-window must be a number of seconds from 0 to \(Int(Self.maxSeconds))")
        }
        if let timeout {
            guard timeout.isFinite, timeout > 0, timeout <= Self.maxSeconds else {
                throw ValidationError("--timeout must be a number of seconds above 0 and at most \(Int(Self.maxSeconds))")
            }
        }
        if publish.url != nil {
            guard let output, output != "-" else { throw ValidationError("--publish needs --output FILE: the file is the outbox records are published from") }
            guard (format ?? .guess(forPath: output)) == .jsonl else { throw ValidationError("--publish needs JSON Lines output (--format jsonl)") }
        } else if publish.caFile != nil {
            throw ValidationError("--mqtt-ca goes with --publish mqtts://…")
        }
    }

    func run() async throws {
        let progress = InventoryProgress()
        let format = self.format ?? .guess(forPath: output)
        let destination: InventoryOutput
        do {
            if let output, output != "-" {
                destination = try InventoryOutput(path: output, format: format) { progress.note("nfctap: warning: " + SafeText.escaped($0)) }
            } else {
                destination = try InventoryOutput(standardOutputWith: format)
            }
        } catch let error as InventoryOutputError {
            throw progress.fail(SafeText.escaped(error.description), status: ExitStatus.failure)
        }

        let environment = readerOptions.environment
        let forwarder: Forwarder?
        do {
            forwarder = try publish.startForwarder(outbox: output ?? "-", statusEvery: 10) { progress.note($0) }
        } catch let error as CLIError {
            throw progress.fail(error.message, status: ExitStatus.failure)
        }
        defer {
            if let forwarder {
                forwarder.stop(drain: .seconds(2))
                progress.note("MQTT: " + SafeText.escaped(forwarder.status.summary))
            }
        }

        let readers: [ReaderInfo]
        do {
            readers = try InventoryPreflight.readers(in: environment, matching: readerOptions.readers)
        } catch {
            throw progress.fail(SafeText.escaped(String(describing: error)), status: ExitStatus.noReader)
        }

        let recorder = InventoryRecorder(output: destination, duplicateWindow: Self.duration(duplicateWindow)) {
            progress.confirmed($0, complete: $1, stats: $2)
        }
        let run = InventoryRun(environment: environment, readerFilter: readerOptions.filter,
                               timeLimit: timeout.map(Self.duration),
                               operationTimeout: readerOptions.operationTimeout) { recorder.handle($0) }
        recorder.onFailure = { [weak run] error in
            progress.note("nfctap: error: " + SafeText.escaped(error.description) + "; inventory stopped")
            run?.stop(.userCanceled)
        }
        let signalsSeen = Atomic<Int>(0)
        let trap = SignalTrap([SIGINT, SIGTERM, SIGHUP], queue: DispatchQueue(label: "nfctap.inventory.signals")) { number in
            if number == SIGHUP {
                // logrotate's convention: the output was moved away; go on in a new file.
                do {
                    try destination.reopen()
                } catch {
                    progress.note("nfctap: warning: SIGHUP: cannot reopen the output: " + SafeText.escaped(String(describing: error)))
                }
                return
            }
            // A second Ctrl-C ends the process at once (documented): nothing is left to flush, every
            // record is written and synced before it is confirmed.
            if signalsSeen.add(1, ordering: .relaxed).newValue > 1 { Foundation.exit(ExitStatus.interrupted) }
            run.stop(.signal(number))
        }
        defer { withExtendedLifetime(trap) {} }

        let names = readers.map(\.name).joined(separator: ", ")
        progress.note("Inventory: tap tags on \(SafeText.escaped(names)); Ctrl-C to finish. Records: \(SafeText.escaped(destination.displayName)) (\(format.rawValue))")
        let end = await run.run()

        if !run.becameActive {
            throw progress.fail(SafeText.escaped(end.localizedDescription),
                                status: end.code == .readerErrorUnsupportedFeature ? ExitStatus.noReader : ExitStatus.failure)
        }
        let stats = recorder.stats
        for line in stats.summaryLines(destination: destination.displayName + " (\(format.rawValue))") { progress.note(line) }
        if recorder.failure != nil { throw CLIError.reported(status: ExitStatus.failure) }
        switch end.code {
        case .readerSessionInvalidationErrorUserCanceled, .readerSessionInvalidationErrorSessionTimeout:
            return
        case .readerErrorUnsupportedFeature:
            throw progress.fail(SafeText.escaped(end.localizedDescription), status: ExitStatus.noReader)
        default:
            throw progress.fail("inventory ended: " + SafeText.escaped(end.localizedDescription), status: ExitStatus.failure)
        }
    }

    static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
