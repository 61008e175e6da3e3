import ArgumentParser
import Foundation
import NFCTapKit
import Pairing

/// `nfctap agent`: background tag reading for the desktop session (systemd/nfctap-agent.service).
struct Agent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Read tags in the background and show a desktop notification per tap.",
        discussion: """
            Runs until stopped (SIGINT/SIGTERM), usually as the systemd user unit: \
            `systemctl --user enable --now nfctap-agent`. Every tag presented on the readers \
            (--reader narrows them) is read and shown as a notification through \
            org.freedesktop.Notifications on the session bus: the URL, the text, \
            "Zebra printer <serial>" or "empty tag", with an Open (or Pair) action.

            Open launches the application whose desktop entry claims the tag's first URL with \
            X-NFC-URL-Prefixes=<prefix>;… (longest prefix wins) as its Exec line says, with \
            NFCTAP_NDEF_FILE (the raw message) and NFCTAP_NDEF_JSON_FILE (its JSON) in its \
            environment; with no claim, http(s), tel and mailto URLs open with the default \
            handler (xdg-open, or the OpenURI portal in a Flatpak sandbox). Other schemes are \
            never opened without a claim. Pair runs --pair-with for Zebra printer tags.

            While any other nfctap session (a `scan`, an app using CoreNFCLinux) runs, the agent \
            releases the readers and resumes after it (lock files in $XDG_RUNTIME_DIR/nfctap).

            stdout: one JSON object per event (started, reading, paused, resumed, tap, unread, \
            skipped, action, closed, paired, error); stderr: messages.

            Exit codes: 0 stopped by a signal, 1 no session bus / the bus failed, 64 usage error.
            """)

    @OptionGroup var readerOptions: ReaderOptions

    @Option(name: .customLong("pair-with"),
            help: ArgumentHelp("What Pair does for a Zebra printer tag: bluez, exec:CMD (run without a shell, identity in its environment) or json (a line on stdout).",
                               valueName: "handler"))
    var pairWith: PairHandlerChoice = .bluez

    @Option(help: ArgumentHelp("BlueZ adapter for --pair-with bluez (default: the first).", valueName: "hciN"))
    var adapter: String?

    func validate() throws {
        if case let .exec(line) = pairWith {
            do { _ = try ExecPairingHandler(commandLine: line) } catch {
                throw ValidationError("--pair-with exec: \(error)")
            }
        }
    }

    func run() async throws {
        var settings = AgentRunner.Settings()
        settings.filter = readerOptions.filter
        settings.pairWith = pairWith
        settings.pairingOptions = PairingOptions(adapter: adapter)
        try await AgentRunner.run(settings: settings, environment: ProcessInfo.processInfo.environment)
    }
}
