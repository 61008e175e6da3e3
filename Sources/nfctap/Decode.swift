import ArgumentParser
import NFCTapKit

/// `nfctap decode`: decodes an NDEF message given as hex, a binary file, or stdin.
struct Decode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an NDEF message given as hex, a file or stdin.",
        discussion: """
            Input: the hex argument, or --file (raw binary NDEF), or else stdin. Stdin is read as hex
            text when, after trimming whitespace, it is not empty and all of it is hex digits with
            optional separators (space, tab, newline, ':', '-', ',') and a leading 0x; otherwise it
            is read as binary. (A message whose first record has MB set starts with a byte of 0x80
            or more, which is never hex text, so the rule cannot misread such a message.)

            Output: one line per record on stdout, or with --json one JSON object:
            {"records":[{"tnf":1,"type":"U","id":"","payload":"04…","uri":"https://…"}]}.
            type and id are text when printable ASCII, else hex with "typeFormat"/"idFormat":"hex".

            Strict by default: any breach of NFC Forum NDEF or the record type definitions is an
            error. --relaxed reads like a tag reader (missing MB/ME, trailing bytes, unknown URI
            codes are accepted; payload errors are reported per record).
            Errors go to stderr as "nfctap: error: …" with exit code 1.
            """)

    @Argument(help: "NDEF message as hex, e.g. D1010C55046578616D706C652E636F6D")
    var hex: String?

    @Option(name: .long, help: "Read the NDEF message from a binary file.")
    var file: String?

    @Flag(name: .long, help: "Print one JSON object instead of text lines.")
    var json = false

    @Flag(name: .long, help: "Accept what real tags hold (see above) instead of strict decoding.")
    var relaxed = false

    func validate() throws {
        if hex != nil && file != nil { throw ValidationError("give either a hex argument or --file, not both") }
    }

    func run() async throws {
        try DecodeRun(hex: hex, file: file, json: json, relaxed: relaxed).run()
    }
}
