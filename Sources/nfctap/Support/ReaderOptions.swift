import ArgumentParser
import CoreNFCLinux
import NFCReaders
import NFCTapKit
import ReaderCore

/// `--reader` and `--trace`, shared by every command that talks to readers.
struct ReaderOptions: ParsableArguments {
    @Option(name: .customLong("reader"),
            help: ArgumentHelp("A reader name or a unique part of it (repeatable). Default: every reader.",
                               discussion: "PC/SC readers by name (`--reader ACR122`); libnfc devices as `libnfc:<connstring>` (`--reader libnfc:pn532_uart:/dev/ttyUSB0`), opened even when not configured for libnfc. A part of a name that several readers share is refused (exit 3) with their names.",
                               valueName: "name"))
    var readers: [String] = []

    @Flag(help: ArgumentHelp("Log every exchange with the reader to stderr: `connect <reader> ATR …`, `> command`, `< reply SW (ms)`.",
                             discussion: "The trace holds tag UIDs and data: look at it before sharing it."))
    var trace = false

    @Option(name: .customLong("io-timeout"),
            help: ArgumentHelp("Seconds one tag operation (a read, a write, one APDU) may take before the tag counts as lost; 0 = no limit.",
                               discussion: "A card that stops answering while it stays on the reader is given up after this long (Core NFC's tag connection lost, 100); other readers are never held up by it.",
                               valueName: "seconds"))
    var ioTimeout: Double = 5

    /// Largest --io-timeout accepted: one day.
    static let maxIOTimeout: Double = 86_400

    func validate() throws {
        guard ioTimeout.isFinite, ioTimeout == 0 || (ioTimeout >= 0.1 && ioTimeout <= Self.maxIOTimeout) else {
            throw ValidationError("--io-timeout must be 0 (no limit) or between 0.1 and \(Int(Self.maxIOTimeout)) seconds")
        }
    }

    /// The session filter: all readers, or one per `--reader` (`ReaderSelection`'s rule).
    var filter: NFCReaderFilter { NFCReaderFilter(readerQueries: readers) }

    /// The libnfc devices named as `--reader libnfc:<connstring>`.
    var libnfcDevices: [String] { ReaderSelection.libnfcDevices(in: readers) }

    /// The environment the command's session uses: the process default, plus the libnfc devices
    /// `--reader` names; tags on PC/SC readers `--reader` does not name are not touched. Starts
    /// the trace first when `--trace` is given.
    var environment: NFCReaderEnvironment {
        if trace { CommandTrace.start() }
        return readers.isEmpty ? .shared : .system(libnfcDevices: libnfcDevices, readerQueries: readers)
    }

    /// The session's per-operation deadline from --io-timeout.
    var operationTimeout: Duration? {
        ioTimeout > 0 ? .milliseconds(Int((ioTimeout * 1000).rounded())) : nil
    }

    /// The settings a desk command's session runs with (NFCTapKit's `DeskReaders`).
    var desk: DeskReaders {
        DeskReaders(filter: filter, environment: environment, operationTimeout: operationTimeout)
    }
}
