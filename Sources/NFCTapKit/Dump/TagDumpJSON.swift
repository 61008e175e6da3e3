import Foundation
import NDEF
import NFCTags
import RecordOutput

/// `nfctap dump --json` (docs/dump.md): one object with `format` `"nfctap-dump"`, `version` 1,
/// `type` (`type2`, `mifareClassic`, `type5` as in scan's JSON), `uid`, `atqa` and `sak`, and the
/// memory as upper-case hex strings, one per page or block, `null` for one that could not be
/// read; a MIFARE Classic block writes `??` for each byte nobody could read.
package enum TagDumpJSON {
    package static func value(_ dump: TagDump) -> JSONValue {
        var fields: [(String, JSONValue)] = [("format", .string("nfctap-dump")), ("version", .int(1))]
        func hex(_ bytes: [UInt8]?) -> JSONValue { bytes.map { .string($0.hexString) } ?? .null }
        switch dump.memory {
        case .type2: fields.append(("type", .string("type2")))
        case .mifareClassic: fields.append(("type", .string("mifareClassic")))
        case .iso15693: fields.append(("type", .string("type5")))
        }
        fields += [("product", .string(dump.summary)), ("uid", hex(dump.uid))]
        if let atqa = dump.atqa { fields.append(("atqa", hex(atqa))) }
        if let sak = dump.sak { fields.append(("sak", hex([sak]))) }
        switch dump.memory {
        case let .type2(m):
            fields += [("chip", .string(m.product.rawValue)), ("getVersion", hex(m.version)), ("signature", hex(m.signature)),
                       ("pages", .array(m.pages.map(hex)))]
        case let .mifareClassic(m):
            fields += [("layout", .string(m.layout.rawValue)),
                       ("blocks", .array(m.blocks.map { .string($0.map { $0.map { [$0].hexString } ?? "??" }.joined()) }))]
        case let .iso15693(m):
            fields += [("dsfid", hex(m.dsfid.map { [$0] })), ("afi", hex(m.afi.map { [$0] })),
                       ("icReference", hex(m.icReference.map { [$0] })), ("blockSize", .int(m.blockSize)),
                       ("blocks", .array(m.blocks.map(hex))), ("security", hex(m.security))]
        }
        return .object(fields)
    }

    private struct File: Decodable {
        var format: String
        var version: Int
        var type: String
        var uid: String
        var atqa: String?
        var sak: String?
        var chip: String?
        var getVersion: String?
        var signature: String?
        var pages: [String?]?
        var layout: String?
        var blocks: [String?]?
        var dsfid: String?
        var afi: String?
        var icReference: String?
        var blockSize: Int?
        var security: String?
    }

    /// Reads what `value(_:)` wrote.
    /// - Throws: `TagDumpFileError` for JSON that is not such a dump, or values that do not fit the tag.
    package static func parse(_ data: Data) throws(TagDumpFileError) -> TagDump {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw TagDumpFileError("not an nfctap dump (JSON with format \"nfctap-dump\", version 1)")
        }
        guard file.format == "nfctap-dump", file.version == 1 else { throw TagDumpFileError("not an nfctap dump of version 1") }
        func bytes(_ text: String?, _ what: String, count: ClosedRange<Int>) throws(TagDumpFileError) -> [UInt8] {
            guard let text, let parsed = [UInt8](hex: text), count.contains(parsed.count) else {
                throw TagDumpFileError("\"\(what)\" must be \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound)–\(count.upperBound)") bytes of hex")
            }
            return parsed
        }
        func optional(_ text: String?, _ what: String, count: ClosedRange<Int>) throws(TagDumpFileError) -> [UInt8]? {
            text == nil ? nil : try bytes(text, what, count: count)
        }
        let uid = try bytes(file.uid, "uid", count: 4 ... 10)
        let atqa = try optional(file.atqa, "atqa", count: 2 ... 2)
        let sak = try optional(file.sak, "sak", count: 1 ... 1)?[0]
        switch file.type {
        case "type2":
            guard let chip = file.chip.flatMap(Type2Product.init(rawValue:)), let total = chip.totalPages else {
                throw TagDumpFileError("\"chip\" must name a Type 2 chip nfctap knows (\(Type2Product.allCases.filter { $0.totalPages != nil }.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let pages = file.pages, pages.count == total else { throw TagDumpFileError("a \(chip) has \(total) pages") }
            var parsed: [[UInt8]?] = []
            for (i, page) in pages.enumerated() { parsed.append(try optional(page, "pages[\(i)]", count: 4 ... 4)) }
            return TagDump(uid: uid, atqa: atqa, sak: sak, memory: .type2(Type2Memory(
                product: chip, version: try optional(file.getVersion, "getVersion", count: 8 ... 8),
                signature: try optional(file.signature, "signature", count: 32 ... 32), pages: parsed)))
        case "mifareClassic":
            guard let layout = file.layout.flatMap(MifareClassicLayout.init(rawValue:)) else {
                throw TagDumpFileError("\"layout\" must be one of \(MifareClassicLayout.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let blocks = file.blocks, blocks.count == layout.blockCount else {
                throw TagDumpFileError("a \(layout.productName) has \(layout.blockCount) blocks")
            }
            var parsed: [[UInt8?]] = []
            for (i, block) in blocks.enumerated() {
                guard let parsedBlock = MifareClassicMemory.block(hex: block ?? String(repeating: "?", count: 32)) else {
                    throw TagDumpFileError("blocks[\(i)] must be 32 hex digits (?? for an unknown byte)")
                }
                parsed.append(parsedBlock)
            }
            return TagDump(uid: uid, atqa: atqa, sak: sak, memory: .mifareClassic(MifareClassicMemory(layout: layout, blocks: parsed)))
        case "type5":
            guard uid.count == 8 else { throw TagDumpFileError("an ISO 15693 uid has 8 bytes") }
            guard let size = file.blockSize, (1 ... 32).contains(size), let blocks = file.blocks, (1 ... 256).contains(blocks.count) else {
                throw TagDumpFileError("\"blockSize\" must be 1–32 and \"blocks\" hold 1–256 blocks")
            }
            var parsed: [[UInt8]?] = []
            for (i, block) in blocks.enumerated() { parsed.append(try optional(block, "blocks[\(i)]", count: size ... size)) }
            return TagDump(uid: uid, memory: .iso15693(ISO15693Memory(
                dsfid: try optional(file.dsfid, "dsfid", count: 1 ... 1)?[0], afi: try optional(file.afi, "afi", count: 1 ... 1)?[0],
                icReference: try optional(file.icReference, "icReference", count: 1 ... 1)?[0], blockSize: size, blocks: parsed,
                security: try optional(file.security, "security", count: blocks.count ... blocks.count))))
        default:
            throw TagDumpFileError("\"type\" must be type2, mifareClassic or type5")
        }
    }
}
