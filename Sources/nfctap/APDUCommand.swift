import SafeText
import ArgumentParser
import CoreNFCLinux
import Foundation
import NDEF
import NFCTapKit

/// `nfctap apdu`: sends ISO 7816 APDUs to the next ISO-DEP card (a Type 4 tag, a smart card).
struct APDUCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apdu",
        abstract: "Send ISO 7816 APDUs to the next ISO-DEP card and print the replies.",
        discussion: """
            Each argument is one command APDU in hex (spaces and colons allowed inside quotes), \
            e.g. nfctap apdu 00A4040007D276000085010100 00B000000F. They are checked before waiting \
            for a card and sent in order on one connection, nothing else in between.

            Output per APDU: for people "> command" then "< data SW (meaning)"; with --json one \
            JSON object per line: {"apdu": hex, "data": hex, "sw": "9000", "status": "90 00 (success)"}. \
            A status word other than 90 00 is output, not an error.

            Exit codes: 0 every APDU was answered, 1 the card left, or the tag is not an ISO 7816 card \
            (a Type 2 tag), 2 no card before --timeout, 3 no pcscd / no reader, 64 an argument is not \
            an APDU, 130 interrupted.
            """)

    @Argument(help: ArgumentHelp("Command APDUs as hex.", valueName: "hex"))
    var apdus: [String]

    @OptionGroup var readerOptions: ReaderOptions

    @Option(help: ArgumentHelp("Seconds to wait for a card (60 by default); 0 waits without limit.", valueName: "seconds"))
    var timeout: Double = 60

    @Flag(help: "Print one JSON object per APDU (JSON Lines).") var json = false

    func validate() throws {
        guard !apdus.isEmpty else { throw ValidationError("give at least one APDU in hex") }
        for text in apdus { _ = try Self.parse(text) }
        guard timeout.isFinite, timeout >= 0 else { throw ValidationError("--timeout must be 0 (no limit) or a positive number of seconds") }
    }

    /// One argument as an APDU.
    /// - Throws: `ValidationError` when it is not hex or not one well-formed APDU (ISO 7816-4 cases 1–4).
    static func parse(_ text: String) throws -> (bytes: [UInt8], apdu: NFCISO7816APDU) {
        let shown = SafeText.escaped(text)
        guard let bytes = [UInt8](hex: text) else { throw ValidationError("\"\(shown)\" is not hex") }
        guard let apdu = NFCISO7816APDU(data: Data(bytes)) else {
            throw ValidationError("\"\(shown)\" is not an APDU: CLA INS P1 P2, then optionally Lc data and/or Le (ISO 7816-4)")
        }
        return (bytes, apdu)
    }

    func run() async throws {
        try await APDURun(commands: try apdus.map(Self.parse), json: json, timeout: timeout, readers: readerOptions.desk).run()
    }
}
