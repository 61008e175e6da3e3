import SafeText
import Foundation
import NDEF
import NFCReaders
import ReaderCore
import RecordOutput

/// `nfctap readers`: the PC/SC readers attached now, the configured libnfc devices
/// (`libnfc:<connstring>`), and the tag on each, as one JSON array or lines for people.
package enum ReaderListing {
    /// One reader of the output.
    package struct Entry: Sendable {
        package struct Tag: Sendable {
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
            /// MIFARE Classic cards: layout and directory (`MifareClassicReaderDetails`).
            var mifareClassic: MifareClassicReaderDetails.Details?
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

        /// A MIFARE Classic card's layout and directory, through `backend`.
        mutating func addClassicDetails(from backend: any ReaderBackend) {
            guard let detected, let classic = MifareClassicReaderDetails.details(backend: backend, tag: detected) else { return }
            tag?.mifareClassic = classic
            tag?.product = classic.layout.productName
        }

        /// The keys in the order the help text gives; `tag` is null when absent, so every entry
        /// has the same keys.
        package var json: JSONValue {
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
                    if let classic = tag.mifareClassic { fields.append(("mifareClassic", classic.json)) }
                    if let explanation = tag.explanation { fields.append(("explanation", .array(explanation.map { .string($0) }))) }
                    return .object(fields)
                } ?? .null),
            ])
        }
    }

    /// Lists the readers and prints them.
    /// - Parameters:
    ///   - queries: `--reader`: only the readers these name (the same rule as every command).
    ///   - libnfcDevices: the `libnfc:<connstring>` devices `--reader` names, opened too.
    /// - Throws: `CLIError` with exit 3 when no reader can be listed, none matches, or none is attached.
    package static func run(queries: [String], libnfcDevices: [String], json: Bool, explain: Bool) throws(CLIError) {
        var entries: [Entry] = []
        var pcscProblem: ReaderError?
        do {
            let backend = queries.isEmpty ? PCSCBackend()
                : PCSCBackend(identifiesTags: { name in queries.contains { ReaderSelection.matches($0, name: name) } })
            entries = try backend.snapshot().map(Entry.init)
            for i in entries.indices {
                guard let detected = entries[i].detected else { continue }
                let info = ISO15693ReaderDetails.systemInfo(backend: backend, tag: detected)
                entries[i].tag?.iso15693 = ISO15693ReaderDetails.json(uid: detected.uid, systemInfo: info)
                entries[i].addClassicDetails(from: backend)
            }
        } catch {
            pcscProblem = error
        }
        entries += Self.libnfcEntries(adding: libnfcDevices)
        if let pcscProblem, entries.isEmpty {
            throw CLIError("\(pcscProblem)", status: ExitStatus.noReader)
        }
        if !queries.isEmpty {
            // `--reader`: the same rule as every command; a part of several names is refused.
            let attached = entries.map(\.reader)
            let chosen: [ReaderInfo]
            do {
                chosen = try ReaderSelection.select(queries, from: attached)
            } catch {
                throw CLIError("\(error)", status: ExitStatus.noReader)
            }
            guard !chosen.isEmpty else {
                let wanted = queries.map { "\"\($0)\"" }.joined(separator: " or ")
                throw CLIError("no reader matches \(wanted) (attached: \(attached.map(\.name).joined(separator: ", ")))",
                               status: ExitStatus.noReader)
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
                let tag = e.tag.map { tag in
                    "\(tag.technology) tag, UID \(tag.uid.isEmpty ? "unknown" : tag.uid), ATR \(tag.atr)"
                        + (tag.mifareClassic.map { "; \($0.summary)" } ?? "")
                } ?? "no tag"
                Stdout.line("\(e.name)\t\(e.backend)\t\(tag)")
                for line in e.tag?.explanation ?? [] { print("\t\(SafeText.escaped(line))") }
            }
        }
        if let pcscProblem {
            // libnfc readers were listed; say why PC/SC ones may be missing.
            Stderr.line("nfctap: warning: PC/SC: \(pcscProblem)")
        }
        if entries.isEmpty {
            throw CLIError("\(ReaderError.noReaders)", status: ExitStatus.noReader)
        }
    }

    /// The libnfc devices named in LIBNFC_DEVICE / libnfc.conf that open now (no USB scan: it would
    /// take an ACR122U from pcscd), each with the tag in its field after one anticollision round.
    package static func libnfcEntries(adding devices: [String] = []) -> [Entry] {
        let backend = LibNFCBackend.configuredDevicesOnly(adding: devices)
        defer { backend.close() }
        guard let readers = try? backend.listReaders() else { return [] }
        return readers.map { info in
            let tag = (try? backend.detectTag(on: info)) ?? nil
            var entry = Entry(reader: info, tag: tag)
            entry.addClassicDetails(from: backend)
            return entry
        }
    }
}
