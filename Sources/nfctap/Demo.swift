import ArgumentParser
import NFCTapKit

/// `nfctap demo`: the desk flow end to end on built-in virtual tags, no hardware.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the desk flow end to end on built-in virtual tags (no reader needed).",
        discussion: """
            An in-process virtual reader ("\(DemoTags.readerName)") and the real sessions, tag
            logic and NDEF codec: reads an NTAG213 with a URL, a Type 4 tag with a text record, a
            Zebra ZQ320 printer tag (showing what `nfctap pair` would do, without pairing), a MIFARE
            Classic 1K and, on a second virtual reader, an ICODE SLIX2 (ISO 15693), then writes
            a URL to a blank NTAG215 through a read-write session (connect, queryNDEFStatus, writeNDEF)
            and reads it back.

            Tags go to stdout as `scan` prints them (one JSON object per line with --json, plus
            "demoStep" and, for the printer, "pairDryRun"); the narration goes to stderr.
            Pauses between steps unless --fast or stdout is not a terminal. Exit 0 when every step
            gave what it should, 1 otherwise.
            """)

    @Flag(help: "Print each tag as one JSON object per line.")
    var json = false

    @Flag(help: "No pauses between steps (the default when stdout is not a terminal).")
    var fast = false

    @Flag(help: "Log every exchange with the virtual reader to stderr, as --trace does on real readers.")
    var trace = false

    func run() async throws {
        if trace { CommandTrace.start() }
        try await DemoTour.run(json: json, fast: fast)
    }
}
