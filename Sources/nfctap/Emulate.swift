import ArgumentParser
import NFCTapKit
import TagEmulation

struct Emulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Present a virtual tag to pcscd (through vpcd) or to libnfc (as a PN532 on a pseudo-terminal).",
        discussion: """
            For trying nfctap and other PC/SC or libnfc software without hardware.

            vpcd: install vsmartcard-vpcd (it makes pcscd show readers "Virtual PCD 00 00" and "00 01",
            listening on 127.0.0.1:35963 and :35964), then
                nfctap emulate --vpcd 127.0.0.1:35963 --preset zebra-zq320
            and in another terminal: nfctap scan.

            PN532: nfctap emulate --pn532-pty --preset ntag213 prints the libnfc connstring
            (pn532_uart:/dev/pts/N) on stdout; use it as LIBNFC_DEVICE or --reader libnfc:<connstring>.

            The tag stays in the field until Ctrl-C (or --duration). Tag sources: --preset NAME (see
            --list-presets); --dump FILE: a dump of a Type 2, MIFARE Classic or ISO 15693 tag, as
            Flipper Zero's .nfc text or `nfctap dump --json` (so a bug report's tag becomes a test),
            or a MIFARE Classic dump of nfc-mfclassic (.mfd), Proxmark (.bin, .eml, JSON) or MIFARE
            Classic Tool (.mct);
            or --tag FILE: a Type 2 memory image (180/540/924 bytes for NTAG213/215/216) or an NDEF
            message, put on --chip (default ntag215). ISO 15693 tags need --vpcd (a PN532 has no
            ISO 15693 radio).
            """)

    @Option(help: ArgumentHelp("Connect to vpcd at HOST:PORT (a virtual card on pcscd).", valueName: "host:port"))
    var vpcd: String?

    @Flag(help: "Emulate a PN532 on a pseudo-terminal for libnfc's pn532_uart driver.")
    var pn532Pty = false

    @Option(help: ArgumentHelp("With --pn532-pty: also make this symlink to the pty (a stable path across restarts).", valueName: "path"))
    var link: String?

    @Option(help: "A built-in tag (see --list-presets).")
    var preset: String?

    @Option(help: ArgumentHelp("A file with a Type 2 memory image or an NDEF message.", valueName: "file"))
    var tag: String?

    @Option(help: ArgumentHelp("A tag dump: Flipper Zero .nfc, nfctap dump's JSON; for MIFARE Classic also .mfd, .bin, .eml, .mct, Proxmark JSON.", valueName: "file"))
    var dump: String?

    @Option(help: "Chip for an NDEF file: \(VirtualTagCatalog.Chip.allCases.map(\.rawValue).joined(separator: ", ")).")
    var chip: String = "ntag215"

    @Option(help: "PC/SC reader personality for vpcd: generic, acr122u, acr1252u, identiv, omnikey, springcard.")
    var profile: String = "generic"

    @Option(help: ArgumentHelp("Milliseconds added to every exchange.", valueName: "ms"))
    var latency: Int = 0

    @Option(help: ArgumentHelp("Remove the tag and exit after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Flag(help: "List the built-in tags and exit.")
    var listPresets = false

    func validate() throws {
        if listPresets { return }
        guard (vpcd != nil) != pn532Pty else { throw ValidationError("choose one of --vpcd HOST:PORT or --pn532-pty") }
        guard [preset != nil, tag != nil, dump != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("choose one of --preset NAME, --dump FILE or --tag FILE")
        }
        guard VirtualTagCatalog.Chip(rawValue: chip) != nil else { throw ValidationError("unknown --chip \(chip)") }
        guard latency >= 0, latency <= 10_000 else { throw ValidationError("--latency must be 0…10000 ms") }
        if let vpcd { _ = try Self.hostPort(vpcd) }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
        if link != nil, !pn532Pty { throw ValidationError("--link goes with --pn532-pty") }
    }

    static func hostPort(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else {
            throw ValidationError("--vpcd takes HOST:PORT, e.g. 127.0.0.1:35963")
        }
        let host = String(text[..<colon])
        guard !host.isEmpty else { throw ValidationError("--vpcd takes HOST:PORT, e.g. 127.0.0.1:35963") }
        return (host, port)
    }

    func run() async throws {
        if listPresets {
            for p in VirtualTagCatalog.presets { print("\(p.name)\t\(p.summary)") }
            return
        }
        let source: EmulateRun.Source = if let preset { .preset(preset) } else if let dump { .dump(dump) } else {
            .file(tag!, chip: VirtualTagCatalog.Chip(rawValue: chip)!)
        }
        let target: EmulateRun.Target
        if let vpcd {
            let (host, port) = try Self.hostPort(vpcd)
            target = .vpcd(host: host, port: port, profile: EmulateRun.profile(profile))
        } else {
            target = .pn532(link: link)
        }
        try await EmulateRun(source: source, target: target, latency: .milliseconds(latency),
                             duration: duration.map { .milliseconds(Int64($0 * 1000)) }).run()
    }
}
