import ArgumentParser
import Foundation
import NDEF
import NFCReaders
import NFCTapKit
import ReaderCore
import RecordOutput

/// `nfctap readers`: the PC/SC readers attached now, the configured libnfc devices
/// (`libnfc:<connstring>`), and the tag on each.
///
/// Exit codes: 0 with at least one reader; 3 when pcscd is not running and no libnfc device
/// opens (message with the fix on stderr) or when no reader is attached (an empty list on stdout,
/// a message on stderr).
struct Readers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers",
        abstract: "List the NFC readers and the tag on each.",
        discussion: """
            PC/SC readers come from pcscd; libnfc devices when named in LIBNFC_DEVICE or \
            /etc/nfc/libnfc.conf (device.connstring) or as --reader libnfc:<connstring>, listed as \
            libnfc:<connstring>. --reader lists only the readers it names (a part of several names is \
            refused, exit 3). With --json, stdout is one JSON array: [{"schemaVersion", "name", "backend", "feedback", \
            "tag": null or {"technology", "atr", "uid", and "atqa", "sak" where the backend knows them (libnfc)}}], \
            keys in that order (bytes as upper-case hex); an ISO 15693 tag adds "iso15693": {"manufacturerCode", \
            "manufacturer", "product", "blockSize", "blockCount", "icReference", "dsfid", "afi"}, each only when the \
            UID or Get System Info gives it; a FeliCa card (technology "felica", uid = IDm) adds \
            "pmm", "systemCode" and "product" when the reader polled them (libnfc). --explain adds, under each \
            tag, what its ATR says (PC/SC Part 3 storage-card fields, and the matching entries of pcsc-tools' \
            /usr/share/pcsc/smartcard_list.txt when installed); with --json as "explanation", an array of \
            those lines. Exit 3 when no reader can be \
            listed (pcscd not running and no libnfc device) or none is attached (then the list is empty).
            """)

    @Flag(help: "Print one JSON array on stdout.") var json = false
    @Flag(help: "Explain each tag's ATR (PC/SC Part 3 fields; pcsc-tools' smartcard_list.txt when installed).")
    var explain = false

    @OptionGroup var readerOptions: ReaderOptions

    /// One reader of the output.
    struct Entry {
        struct Tag {
            var technology: String
            var atr: String
            var uid: String
            var atqa: String?
            var sak: String?
            var explanation: [String]?
            /// FeliCa cards only (docs/tags-and-readers.md §9.4); left out when nil.
            var pmm: String?
            var systemCode: String?
            var product: String?
            /// ISO 15693 tags: UID and Get System Info details (`ISO15693ReaderDetails`).
            var iso15693: JSONValue?
        }
        var name: String
        var backend: String
        var feedback: Bool
        var tag: Tag?
        /// The reader itself, for `--reader` (not printed).
        var reader: ReaderInfo
        /// The tag's ATR, for `--explain` (not encoded: `tag.atr` carries it).
        var atrBytes: [UInt8]?
        /// The tag as detected, for the ISO 15693 details (not encoded).
        var detected: DetectedTag?

        init(_ snapshot: ReaderSnapshot) {
            self.init(reader: snapshot.reader, tag: snapshot.tag)
        }

        init(reader: ReaderInfo, tag detected: DetectedTag?) {
            self.reader = reader
            name = reader.name
            backend = reader.backend.rawValue
            feedback = reader.supportsFeedback
            tag = detected.map { Tag(technology: $0.technology.rawValue, atr: $0.atr.hexString, uid: $0.uid.hexString,
                                     atqa: $0.atqa?.hexString, sak: $0.sak.map { [$0].hexString },
                                     pmm: $0.feliCa?.pmm.hexString, systemCode: $0.feliCa?.systemCode.hexString,
                                     product: $0.feliCa?.product.description) }
            atrBytes = detected?.atr
            self.detected = detected
        }

        /// The keys in the order the help text gives; `tag` is null when absent, so every entry
        /// has the same keys.
        var json: JSONValue {
            .object([
                ("name", .string(name)),
                ("backend", .string(backend)),
                ("feedback", .bool(feedback)),
                ("tag", tag.map { tag in
                    var fields: [(String, JSONValue)] = [("technology", .string(tag.technology)), ("atr", .string(tag.atr)),
                                                         ("uid", .string(tag.uid))]
                    // Present only where the backend knows them (left out, not null).
                    let optional: [(String, String?)] = [("atqa", tag.atqa), ("sak", tag.sak), ("pmm", tag.pmm),
                                                         ("systemCode", tag.systemCode), ("product", tag.product)]
                    fields += optional.compactMap { key, value in value.map { (key, JSONValue.string($0)) } }
                    if let iso15693 = tag.iso15693 { fields.append(("iso15693", iso15693)) }
                    if let explanation = tag.explanation { fields.append(("explanation", .array(explanation.map { .string($0) }))) }
                    return .object(fields)
                } ?? .null),
            ])
        }
    }

    func run() throws {
        if readerOptions.trace { CommandTrace.start() }
        var entries: [Entry] = []
        var pcscProblem: ReaderError?
        do {
            let queries = readerOptions.readers
            let backend = queries.isEmpty ? PCSCBackend()
                : PCSCBackend(identifiesTags: { name in queries.contains { ReaderSelection.matches($0, name: name) } })
            entries = try backend.snapshot().map(Entry.init)
            for i in entries.indices {
                guard let detected = entries[i].detected else { continue }
                let info = ISO15693ReaderDetails.systemInfo(backend: backend, tag: detected)
                entries[i].tag?.iso15693 = ISO15693ReaderDetails.json(uid: detected.uid, systemInfo: info)
            }
        } catch {
            pcscProblem = error
        }
        entries += Self.libnfcEntries(adding: readerOptions.libnfcDevices)
        if let pcscProblem, entries.isEmpty {
            throw CLIError("\(pcscProblem)", exit: NFCTapExit.noReader)
        }
        if !readerOptions.readers.isEmpty {
            // `--reader`: the same rule as every command; a part of several names is refused.
            let attached = entries.map(\.reader)
            let chosen: [ReaderInfo]
            do {
                chosen = try ReaderSelection.select(readerOptions.readers, from: attached)
            } catch {
                throw CLIError("\(error)", exit: NFCTapExit.noReader)
            }
            guard !chosen.isEmpty else {
                let wanted = readerOptions.readers.map { "\"\($0)\"" }.joined(separator: " or ")
                throw CLIError("no reader matches \(wanted) (attached: \(attached.map(\.name).joined(separator: ", ")))",
                               exit: NFCTapExit.noReader)
            }
            entries = entries.filter { chosen.contains($0.reader) }
        }
        if explain {
            let list = SmartcardList()
            for i in entries.indices {
                guard let atr = entries[i].atrBytes else { continue }
                entries[i].tag?.explanation = ATRExplanation.lines(atr: atr, list: list)
            }
        }
        if json {
            print(JSONDocument.line(.array(entries.map(\.json))))
        } else {
            for e in entries {
                let tag = e.tag.map { "\($0.technology) tag, UID \($0.uid.isEmpty ? "unknown" : $0.uid), ATR \($0.atr)" } ?? "no tag"
                print("\(e.name)\t\(e.backend)\t\(tag)")
                for line in e.tag?.explanation ?? [] { print("\t\(NDEFText.safe(line))") }
            }
        }
        if let pcscProblem {
            // libnfc readers were listed; say why PC/SC ones may be missing.
            Stderr.line("nfctap: warning: PC/SC: \(pcscProblem)")
        }
        if entries.isEmpty {
            throw CLIError("\(ReaderError.noReaders)", exit: NFCTapExit.noReader)
        }
    }

    /// The libnfc devices named in LIBNFC_DEVICE / libnfc.conf that open now (no USB scan: it would
    /// take an ACR122U from pcscd), each with the tag in its field after one anticollision round.
    static func libnfcEntries(adding devices: [String] = []) -> [Entry] {
        let backend = LibNFCBackend.configuredDevicesOnly(adding: devices)
        defer { backend.close() }
        guard let readers = try? backend.listReaders() else { return [] }
        return readers.map { info in
            let tag = (try? backend.detectTag(on: info)) ?? nil
            return Entry(reader: info, tag: tag)
        }
    }
}
