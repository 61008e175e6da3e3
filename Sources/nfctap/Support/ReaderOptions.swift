import ArgumentParser
import CoreNFCLinux
import NFCReaders
import NFCTags
import NFCTapKit
import ReaderCore
import SafeText
import Foundation

/// `--reader`, `--trace`, `--io-timeout` and `--keys`, shared by every command that talks to readers.
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

    @Option(name: .customLong("keys"),
            help: ArgumentHelp("A file of MIFARE Classic keys to try after the well-known ones.",
                               discussion: "One key of 12 hex digits per line, `#` comments: the dictionaries Proxmark, mfoc and Flipper Zero users share. The MAD key, the NFC Forum key and the transport key are always tried first; a sector no key opens is named (exit 1).",
                               valueName: "file"))
    var keysFile: String?

    /// Largest --io-timeout accepted: one day.
    static let maxIOTimeout: Double = 86_400

    func validate() throws {
        guard ioTimeout.isFinite, ioTimeout == 0 || (ioTimeout >= 0.1 && ioTimeout <= Self.maxIOTimeout) else {
            throw ValidationError("--io-timeout must be 0 (no limit) or between 0.1 and \(Int(Self.maxIOTimeout)) seconds")
        }
        _ = try classicKeys()
    }

    /// The keys of `--keys`, read and checked (also by `validate()`, so a bad file is a usage error).
    func classicKeys() throws -> [[UInt8]] {
        guard let keysFile else { return [] }
        let text: String
        do {
            text = try String(contentsOfFile: keysFile, encoding: .utf8)
        } catch {
            throw ValidationError("--keys \(SafeText.escaped(keysFile)): cannot be read as text (\((error as NSError).localizedDescription))")
        }
        do {
            return try MifareClassicKey.dictionary(text)
        } catch {
            throw ValidationError("--keys \(SafeText.escaped(keysFile)): \(error)")
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
        let keys = (try? classicKeys()) ?? []
        return readers.isEmpty && keys.isEmpty ? .shared : .system(libnfcDevices: libnfcDevices, readerQueries: readers, classicKeys: keys)
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
