import ArgumentParser
import CoreNFCLinux

/// `--reader`, shared by every command that talks to tags.
struct ReaderOptions: ParsableArguments {
    @Option(name: .customLong("reader"),
            help: ArgumentHelp("A reader name or a unique part of it (repeatable). Default: every reader.",
                               discussion: "PC/SC readers by name (`--reader ACR122`); libnfc devices as `libnfc:<connstring>` (`--reader libnfc:pn532_uart:/dev/ttyUSB0`).",
                               valueName: "name"))
    var readers: [String] = []

    /// The session filter: all readers, or those matching any `--reader`.
    var filter: NFCReaderFilter {
        switch readers.count {
        case 0: return .all
        case 1: return .nameContains(readers[0])
        default: return .nameContainsAny(readers)
        }
    }
}
