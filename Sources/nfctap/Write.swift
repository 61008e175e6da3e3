import ArgumentParser
import Foundation
import NFCTapKit

/// `nfctap write`: writes one NDEF message to the next tag, reads it back, optionally locks the tag.
struct Write: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write an NDEF message to a tag (and optionally lock it).",
        discussion: """
            Waits for one NDEF-formatted tag, writes the message (tear-safe: the length is written \
            last, so an interrupted write leaves the previous message or an empty one, never a \
            corrupt one), reads it back and compares. --lock then makes the tag read-only for good. \
            --format first makes a blank MIFARE Classic NDEF-ready; a blank ISO 15693 tag is \
            formatted without asking.

            --ha-tag writes Home Assistant's tag URL (https://www.home-assistant.io/tag/<id>), as HA's \
            companion apps do, so phones, ESPHome readers and nfctap stations report the same tag id.

            Output: for people one line; with --json one object {"written": bytes, "capacity": bytes, \
            "locked": bool, "uid", "type", "reader"} and "haTag" for a Home Assistant tag.

            Exit codes: 0 written (and verified), 1 the tag is not NDEF formatted, read-only, too \
            small, left the reader, or the read-back differs, 2 no tag before --timeout, 3 no \
            pcscd / no reader / the reader is used by another program, 64 bad options, 130 interrupted.
            """)

    @Option(help: ArgumentHelp("A URI record.", valueName: "uri")) var uri: String?
    @Option(name: .customLong("ha-tag"), defaultAsFlag: "",
            help: ArgumentHelp("A Home Assistant tag: HA's tag URL with this id (a new random UUID without one), the id HA's apps and readers agree on.",
                               valueName: "id"))
    var haTag: String? = nil
    @Option(help: ArgumentHelp("A Text record (UTF-8).", valueName: "text")) var text: String?
    @Option(name: .customLong("lang"), help: ArgumentHelp("The Text record's language (BCP 47).", valueName: "code"))
    var language: String?
    @Option(help: ArgumentHelp("A MIME record of this media type, its content from --file.", valueName: "type"))
    var mime: String?
    @Option(help: ArgumentHelp("The content of the --mime record.", valueName: "file")) var file: String?
    @Option(help: ArgumentHelp("A file holding a whole NDEF message (binary).", valueName: "file")) var ndefFile: String?

    @Flag(help: "First make a blank MIFARE Classic NDEF-ready (NXP AN1305: the MAD, the NFC Forum keys, its access bits; key B kept). A card holding data is refused. Blank ISO 15693 tags are formatted without it.")
    var format = false

    @Flag(help: "After writing, make the tag read-only: permanently on Type 2, Type 5 and FeliCa Lite-S; checked before anything is written.") var lock = false

    @OptionGroup var readerOptions: ReaderOptions

    @Option(help: ArgumentHelp("Seconds to wait for a tag (60 by default); 0 waits without limit.", valueName: "seconds"))
    var timeout: Double = 60

    @Flag(help: "Print one JSON object.") var json = false

    func validate() throws {
        let sources = [uri != nil, haTag != nil, text != nil, mime != nil, ndefFile != nil].filter { $0 }.count
        guard sources == 1 else { throw ValidationError("give exactly one of --uri, --ha-tag, --text, --mime (with --file), --ndef-file") }
        if let haTag, !haTag.isEmpty, !HomeAssistantTag.isValid(Substring(haTag)) {
            throw ValidationError("--ha-tag: an id is 1-128 characters of A-Z, a-z, 0-9, '-' and '_'")
        }
        if language != nil, text == nil { throw ValidationError("--lang goes with --text") }
        if (mime != nil) != (file != nil) { throw ValidationError("--mime and --file go together") }
        if let uri, uri.isEmpty { throw ValidationError("--uri is empty") }
        guard timeout.isFinite, timeout >= 0 else { throw ValidationError("--timeout must be 0 (no limit) or a positive number of seconds") }
    }

    func run() async throws {
        // HA's companion apps write a random UUID in lower case.
        let haURI = haTag.map { HomeAssistantTag.url(for: $0.isEmpty ? UUID().uuidString.lowercased() : $0) }
        let message = try WriteMessage(uri: haURI ?? uri, text: text, language: language ?? "en", mime: mime, file: file, ndefFile: ndefFile)
        try await WriteRun(message: message, lock: lock, format: format, json: json, timeout: timeout, readers: readerOptions.desk).run()
    }
}
