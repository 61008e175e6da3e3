import CoreNFCLinux
import Fleet
import Logging
import Pairing

/// What `nfctap kiosk` does, from its JSON file (Examples/kiosk.json documents every key).
package struct KioskConfiguration: Equatable, Sendable {
    /// What happens to every tag read.
    package enum Action: Equatable, Sendable {
        /// One `TagReportJSON` line per tap to `output`.
        case json
        /// A program (argv, no shell) with the tag as JSON on stdin and `NFCTAP_*` variables.
        case exec(arguments: [String])
        /// Zebra printer tags go to a pairing handler; other tags are refused (red).
        case pair(PairWith)
    }

    /// The pairing handler of `"action": "pair"`.
    package enum PairWith: Equatable, Sendable {
        case bluez
        /// The identity as one JSON line to `output`.
        case json
        case exec(arguments: [String])
    }

    /// Where JSON lines go.
    package enum Output: Equatable, Sendable {
        case standardOutput
        /// Appended to, created with mode 0640 when missing; reopened on every reload.
        case file(String)
    }

    /// Reader names (or parts of names, any case); empty = every reader.
    package var readers: [String] = []
    /// Use pcscd's readers.
    package var pcsc = true
    /// libnfc connstrings; nil = those configured for libnfc (`LIBNFC_DEVICE`, libnfc.conf).
    package var libnfcDevices: [String]? = nil
    package var action: Action = .json
    package var output: Output = .standardOutput
    /// How long an `exec` program may run before it is stopped (SIGTERM, then SIGKILL).
    package var commandTimeout: Duration = .seconds(5)
    /// `pair` with `bluez`: adapter (nil = the first one), LE first, PIN.
    package var bluetoothAdapter: String? = nil
    package var bluetoothLE = false
    package var bluetoothPIN: String? = nil
    /// Green + beep / red on readers that have them.
    package var feedback = true
    /// A tag handled successfully is not handled again if it comes back within this window.
    package var duplicateWindow: Duration = .zero
    /// How long one tag operation may take before the tag counts as lost (`ioTimeoutSeconds`,
    /// as `--io-timeout`): a card that stops answering on one reader holds up nothing else. nil = no limit.
    package var operationTimeout: Duration? = .seconds(5)
    /// `fdatasync` the output file after each line (a beep means the line is on disk).
    package var sync = true
    package var logLevel: Logger.Level = .info
    /// Every exchange with the readers logged to stderr (`--trace`); taken at start only.
    package var trace = false
    /// `"publish"`: every line of the output file also goes to an MQTT broker (docs/fleet.md).
    /// A reload that changes it (or `output`) replaces the forwarder (`KioskPublisher`).
    package var publish: PublishSettings? = nil

    package init() {}

    /// The session's reader filter.
    package var readerFilter: NFCReaderFilter { NFCReaderFilter(readerQueries: readers) }

    /// Settings that only a new session picks up (readers, backends, feedback).
    package func needsNewSession(comparedTo other: KioskConfiguration) -> Bool {
        readers != other.readers || pcsc != other.pcsc || libnfcDevices != other.libnfcDevices || feedback != other.feedback
            || operationTimeout != other.operationTimeout
    }

    /// The pairing options of `pair` (`bluetooth.*`, `timeoutSeconds`).
    package var pairingOptions: PairingOptions {
        PairingOptions(adapter: bluetoothAdapter, forceLE: bluetoothLE, pin: bluetoothPIN, commandTimeout: commandTimeout)
    }
}
