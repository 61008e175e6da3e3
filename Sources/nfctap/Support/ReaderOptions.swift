import ArgumentParser
import CoreNFCLinux

/// `--reader`, shared by every command that talks to tags.
struct ReaderOptions: ParsableArguments {
    @Option(name: .customLong("reader"),
            help: ArgumentHelp("A reader name or a unique part of it (repeatable). Default: every reader.",
                               discussion: "PC/SC readers by name (`--reader ACR122`); libnfc devices as `libnfc:<connstring>` (`--reader libnfc:pn532_uart:/dev/ttyUSB0`).",
                               valueName: "name"))
    var readers: [String] = []

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

    /// The session's per-operation deadline from --io-timeout.
    var operationTimeout: Duration? {
        ioTimeout > 0 ? .milliseconds(Int((ioTimeout * 1000).rounded())) : nil
    }

    /// The session filter: all readers, or those matching any `--reader`.
    var filter: NFCReaderFilter {
        switch readers.count {
        case 0: return .all
        case 1: return .nameContains(readers[0])
        default: return .nameContainsAny(readers)
        }
    }
}
