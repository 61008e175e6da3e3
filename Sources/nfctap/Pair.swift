import SafeText
import ArgumentParser
import NFCTapKit
import Pairing

/// `nfctap pair`: tap a Zebra printer's NFC tag, pair with the printer, optionally talk to it.
struct Pair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair with a Zebra printer by tapping its NFC tag (Print Touch).",
        discussion: """
            Waits for a tap, reads the printer's identity from its tag and hands it to
            the handler. A tag that is not a Zebra printer's is named, and the wait goes
            on until the timeout.

            Handlers:
              bluez     pair, trust and connect over BlueZ: Classic by the tag's mB,
                        LE by its mBL (or with --le)
              exec:CMD  run CMD (split into words, never by a shell) with NFCTAP_SERIAL,
                        NFCTAP_MODEL, NFCTAP_BT_MAC, NFCTAP_BLE_MAC, NFCTAP_WIFI_MAC,
                        NFCTAP_ETHERNET_MAC, NFCTAP_VERSION set and the identity as
                        one JSON line on stdin; its exit status decides success.
                        CMD runs in its own process group, ended (SIGTERM, then
                        SIGKILL 2 s later) when CMD exits or times out: nothing
                        it starts in the background outlives it
              json      print the identity as one JSON line on stdout

            A tag whose Bluetooth MAC is broadcast (FF:FF:FF:FF:FF:FF) or multicast
            (first octet odd) is refused as no printer address, with the reason; an
            all-zero MAC means "absent" (Zebra's convention): no discovery is started.

            After pairing with bluez, --setvar, --getvar, --status and --test-label
            talk to the printer over Bluetooth, in that order.

            Messages go to stderr. --json prints one object on stdout at the end, with
            printer, handler, result, set, variables, status, testLabel, and error or
            dryRun.

            Exit codes: 0 done, 1 pairing or the conversation failed (or the Zebra tag
            is unusable), 2 no printer tag before the timeout, 3 no pcscd / no reader,
            130 interrupted.
            """)

    @Option(help: ArgumentHelp("What to do with the printer: bluez, exec:CMD or json.", valueName: "handler"))
    var handler: PairHandlerChoice = .bluez

    @Option(help: ArgumentHelp("The Bluetooth adapter to use (default: the first one BlueZ lists).", valueName: "hciN"))
    var adapter: String?

    @Flag(help: "Use Bluetooth LE even when the tag has a Classic address.")
    var le = false

    @Option(help: ArgumentHelp("PIN to give if the printer asks for one (bluetooth.authentication on).", valueName: "pin"))
    var pin: String?

    @Flag(name: .customLong("test-label"), help: "Print Zebra's test label after pairing.")
    var testLabel = false

    @Flag(help: "Read the printer's host status (~HS) after pairing.")
    var status = false

    @Option(name: .customLong("getvar"), help: ArgumentHelp("Read an SGD setting after pairing (repeatable).", valueName: "name"))
    var getvars: [String] = []

    @Option(name: .customLong("setvar"), help: ArgumentHelp("Change an SGD setting after pairing (repeatable).", valueName: "name=value"))
    var setvars: [String] = []

    @OptionGroup var readers: ReaderOptions

    @Option(help: ArgumentHelp("Seconds to wait for a tap; 0 = no limit.", valueName: "seconds"))
    var timeout: Double = 60

    @Flag(name: .customLong("dry-run"), help: "Say what would be done after the tap, and do nothing.")
    var dryRun = false

    @Flag(help: "Print one JSON object on stdout at the end.")
    var json = false

    func validate() throws {
        guard timeout.isFinite, timeout >= 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be between 0 (no limit) and 86400 seconds")
        }
        if handler != .bluez && !requests.isEmpty {
            throw ValidationError("--setvar, --getvar, --status and --test-label need --handler bluez (they use its Bluetooth link)")
        }
        for setvar in setvars where !setvar.contains("=") || setvar.hasPrefix("=") {
            throw ValidationError("--setvar takes name=value, got \(SafeText.escaped(setvar).debugDescription)")
        }
        do {
            for request in requests { try request.validate() }
            _ = try handler.makeHandler()
        } catch let error as PairingError {
            throw ValidationError(error.description)
        }
    }

    /// The conversation after pairing, in the order it runs.
    var requests: [PrinterRequest] {
        var out: [PrinterRequest] = setvars.compactMap { item in
            guard let eq = item.firstIndex(of: "=") else { return nil }
            return .setVariable(name: String(item[..<eq]), value: String(item[item.index(after: eq)...]))
        }
        out += getvars.map { .getVariable(name: $0) }
        if status { out.append(.hostStatus) }
        if testLabel { out.append(.testLabel) }
        return out
    }

    var pairingOptions: PairingOptions {
        PairingOptions(adapter: adapter, forceLE: le, pin: pin)
    }

    func run() async throws {
        try await PairRun(handler: handler, pairingOptions: pairingOptions, requests: requests, timeout: timeout,
                          dryRun: dryRun, json: json, readers: readers.desk).run()
    }
}
