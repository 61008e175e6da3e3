import ArgumentParser
import Foundation
import NFCTapKit

/// `nfctap scan`: waits for a tag and prints what it holds (`--multi`: every tag until Ctrl-C).
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Wait for a tag and print what it holds.",
        discussion: """
            Reads one tag (any NFC Forum Type 2 or Type 4 tag; empty and non-NDEF tags are reported \
            too) and prints it: for people, a heading (type, product, UID, reader, capacity, \
            writability) and one line per record; with --json, one JSON object: {"records": […], \
            "uid", "type", "product", "capacity", "writable", "reader", "atr"} plus "atqa"/"sak" where \
            the backend knows them (libnfc; PC/SC readers give the ATR only), "zebra" for a Zebra \
            printer tag, "haTag" for a Home Assistant tag (https://www.home-assistant.io/tag/<id>) \
            and "error"/"errorCode" (Core NFC code) when the tag could not be read as NDEF. \
            `nfctap readers --explain` explains the ATR.

            --multi reads every tag presented, once per presence, until Ctrl-C or --timeout; with \
            --json it prints one JSON object per line (JSON Lines, flushed per tag). Ctrl-C and \
            --timeout are its normal ends: exit 0.

            Messages ("Hold a tag near …", a countdown on terminals) go to stderr; NO_COLOR turns \
            colours off.

            --timeout bounds the whole command, not only the wait for a tag: a card that answers \
            slowly or stops answering while it stays on the reader does not keep scan running past \
            it (the command ends within about a second of --timeout). Each tag operation also has \
            its own deadline (--io-timeout, 5 s): a card silent that long counts as lost and the \
            scan goes on waiting for a tag. Ctrl-C and SIGTERM end the command within a second, \
            even in the middle of an exchange with a card.

            Exit codes: 0 a tag was read (--multi: ended by Ctrl-C or --timeout), 2 no tag read \
            before --timeout (none presented, or the one presented was lost or too slow), 3 no pcscd / no reader / --reader matched nothing or several readers / the reader is used by \
            another program, 130 interrupted (single scan), 1 other failures.
            """)

    @OptionGroup var readerOptions: ReaderOptions

    @Option(help: ArgumentHelp("Seconds to wait for a tag (Core NFC's 60 by default); 0 waits without limit.",
                               valueName: "seconds"))
    var timeout: Double = 60

    @Flag(help: "Print JSON (one object; with --multi one object per line).")
    var json = false

    @Flag(help: "Read every tag presented until Ctrl-C or --timeout.")
    var multi = false

    func validate() throws {
        guard timeout.isFinite, timeout >= 0 else { throw ValidationError("--timeout must be 0 (no limit) or a positive number of seconds") }
    }

    func run() async throws {
        try await ScanRun(json: json, multi: multi, timeout: timeout, readers: readerOptions.desk).run()
    }
}
