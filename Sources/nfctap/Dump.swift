import ArgumentParser
import NFCTapKit

/// `nfctap dump`: the next tag's raw memory, as Flipper Zero's `.nfc` text or JSON.
struct Dump: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Dump a tag's raw memory (Flipper Zero .nfc, or JSON) for a bug report or the emulator.",
        discussion: """
            Waits for one tag and reads its whole memory: every page of a Type 2 tag (NTAG21x, \
            Ultralight) with its GET_VERSION and originality signature, every block of an ISO 15693 \
            tag with its security status, every sector of a MIFARE Classic that a key opens (the \
            well-known keys, then --keys FILE). What could not be read is marked, never invented: \
            '??' for Classic bytes no key reached (stderr names the sectors), pages a password \
            protects left unread. Type 4 and FeliCa tags have no page memory to dump.

            The output is Flipper Zero's .nfc text (version 4), the format people share, or with \
            --json one nfctap-dump object (docs/dump.md). Either goes back into the emulator:
                nfctap dump > tag.nfc
                nfctap emulate --vpcd 127.0.0.1:35963 --dump tag.nfc

            Exit codes: 0 dumped, 1 the tag left the reader or has no memory to dump, 2 no tag \
            before --timeout, 3 no pcscd / no reader, 64 bad options, 130 interrupted.
            """)

    @OptionGroup var readerOptions: ReaderOptions

    @Option(help: ArgumentHelp("Seconds to wait for a tag (60 by default); 0 waits without limit.", valueName: "seconds"))
    var timeout: Double = 60

    @Flag(help: "Print one nfctap-dump JSON object instead of Flipper's .nfc text.") var json = false

    func validate() throws {
        guard timeout.isFinite, timeout >= 0 else { throw ValidationError("--timeout must be 0 (no limit) or a positive number of seconds") }
    }

    func run() async throws {
        try await DumpRun(json: json, timeout: timeout, readers: readerOptions.desk).run()
    }
}
