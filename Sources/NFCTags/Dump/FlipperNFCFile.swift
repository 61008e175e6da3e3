import NDEF

/// Flipper Zero's `.nfc` text format (flipperdevices/flipperzero-firmware
/// `documentation/file_formats/NfcFileFormats.md`, and `lib/nfc/protocols/iso15693_3` for ISO
/// 15693): `Key: value` lines, `#` comments, bytes as space-separated hex, `??` for a byte
/// nobody could read. Files of versions 2–4 are read (version 2's ATQA is LSB first, version 1
/// of the Classic data format has key maps instead of `??`); version 4 is written.
public enum FlipperNFCFile {
    /// Largest file read: a 4K Classic dump is about 14 KB.
    public static let maxFileSize = 1 << 20

    // MARK: Writing

    public static func text(of dump: TagDump) -> String {
        var out: [String] = [
            "Filetype: Flipper NFC device",
            "Version: 4",
            "# Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, NTAG/Ultralight, Mifare Classic, Mifare DESFire, SLIX, ST25TB",
        ]
        func hex(_ bytes: [UInt8]) -> String { bytes.hexString(separator: " ") }
        // PC/SC readers do not report ATQA and SAK: then the chip's own (NTAG/Ultralight `00 44`/`00`,
        // MF1S50 `00 04`/`08`, MF1S70 `00 02`/`18`, Mini `00 04`/`09`), which Flipper needs to emulate.
        func nfcA() {
            let (atqa, sak): ([UInt8], UInt8)
            switch dump.memory {
            case let .mifareClassic(m): (atqa, sak) = m.layout == .classic4K ? ([0x00, 0x02], 0x18) : ([0x00, 0x04], m.layout == .mini ? 0x09 : 0x08)
            default: (atqa, sak) = ([0x00, 0x44], 0x00)
            }
            out.append("# ISO14443-3A specific data")
            out.append("ATQA: \(hex(dump.atqa ?? atqa))")
            out.append("SAK: \(hexByte(dump.sak ?? sak))")
        }
        switch dump.memory {
        case let .type2(m):
            out += ["Device type: NTAG/Ultralight", "# UID is common for all formats", "UID: \(hex(dump.uid))"]
            nfcA()
            out += ["# NTAG/Ultralight specific data", "Data format version: 2",
                    "NTAG/Ultralight type: \(flipperName(m.product))",
                    "Signature: \(hex(m.signature ?? [UInt8](repeating: 0, count: 32)))",
                    "Mifare version: \(hex(m.version ?? [UInt8](repeating: 0, count: 8)))"]
            for i in 0 ..< 3 { out += ["Counter \(i): 0", "Tearing \(i): 00"] }
            out += ["Pages total: \(m.pages.count)", "Pages read: \(m.pagesRead)"]
            for (i, page) in m.pages.enumerated() { out.append("Page \(i): \(hex(page ?? [0, 0, 0, 0]))") }
            out.append("Failed authentication attempts: 0")
        case let .mifareClassic(m):
            out += ["Device type: Mifare Classic", "# UID is common for all formats", "UID: \(hex(dump.uid))"]
            nfcA()
            let type = m.layout == .mini ? "MINI" : m.layout == .classic4K ? "4K" : "1K"
            out += ["# Mifare Classic specific data", "Mifare Classic type: \(type)", "Data format version: 2",
                    "# Mifare Classic blocks, '??' means unknown data"]
            for (i, block) in m.blocks.enumerated() {
                out.append("Block \(i): " + block.map { $0.map(hexByte) ?? "??" }.joined(separator: " "))
            }
        case let .iso15693(m):
            out += ["Device type: ISO15693-3", "# UID is common for all formats", "UID: \(hex(dump.uid))",
                    "# ISO15693-3 specific data"]
            if let dsfid = m.dsfid { out += ["# Data Storage Format Identifier", "DSFID: \(hexByte(dsfid))"] }
            if let afi = m.afi { out += ["# Application Family Identifier", "AFI: \(hexByte(afi))"] }
            if let ic = m.icReference { out += ["# IC Reference - Vendor specific meaning", "IC Reference: \(hexByte(ic))"] }
            out += ["# Lock Bits", "Lock DSFID: false", "Lock AFI: false",
                    "# Number of memory blocks, valid range = 1..256", "Block Count: \(m.blocks.count)",
                    "# Size of a single memory block, valid range = 01...20 (hex)", "Block Size: \(hexByte(UInt8(m.blockSize)))",
                    "Data Content: \(hex(m.blocks.flatMap { $0 ?? [UInt8](repeating: 0, count: m.blockSize) }))",
                    "# Block Security Status: 01 = locked, 00 = not locked",
                    "Security Status: \(hex(m.security ?? [UInt8](repeating: 0, count: m.blocks.count)))"]
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Flipper's name of a Type 2 chip ("NTAG/Ultralight type").
    static func flipperName(_ product: Type2Product) -> String {
        switch product {
        case .ntag213: return "NTAG213"
        case .ntag215: return "NTAG215"
        case .ntag216: return "NTAG216"
        case .ultralight, .unknown: return "Mifare Ultralight"
        case .ultralightC: return "Mifare Ultralight C"
        case .ultralightEV1MF0UL11: return "Mifare Ultralight 11"
        case .ultralightEV1MF0UL21: return "Mifare Ultralight 21"
        }
    }

    private static func product(flipperName name: String) -> Type2Product? {
        Type2Product.allCases.first { flipperName($0) == name }
    }

    // MARK: Reading

    /// Parses a dump of an NTAG/Ultralight, a MIFARE Classic or an ISO 15693 tag.
    /// - Throws: `TagDumpFileError` naming the line, for a file that is not such a dump or whose
    ///   values do not fit the tag it names (a page count that is not the chip's, a block past the card).
    public static func parse(_ text: String) throws(TagDumpFileError) -> TagDump {
        guard text.utf8.count <= maxFileSize else { throw TagDumpFileError("the file is larger than \(maxFileSize) bytes") }
        var fields: [String: (line: Int, value: Substring)] = [:]
        var order: [String] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else { throw TagDumpFileError(line: index + 1, "not a \"Key: value\" line") }
            let key = String(line[..<colon])
            guard fields[key] == nil else { throw TagDumpFileError(line: index + 1, "a key given twice") }
            fields[key] = (index + 1, line[line.index(after: colon)...].drop { $0 == " " })
            order.append(key)
        }
        func value(_ key: String) throws(TagDumpFileError) -> (line: Int, value: Substring) {
            guard let field = fields[key] else { throw TagDumpFileError("no \"\(key)\" line") }
            return field
        }
        guard try value("Filetype").value == "Flipper NFC device" else {
            throw TagDumpFileError(line: fields["Filetype"]?.line, "not a Flipper NFC device file")
        }
        let (versionLine, versionText) = try value("Version")
        guard let version = Int(versionText), (2 ... 4).contains(version) else {
            throw TagDumpFileError(line: versionLine, "file version must be 2, 3 or 4")
        }
        func bytes(_ key: String, count: ClosedRange<Int>? = nil) throws(TagDumpFileError) -> [UInt8] {
            let (line, text) = try value(key)
            let parsed = try hexBytes(text, line: line)
            let known = parsed.compactMap { $0 }
            guard known.count == parsed.count else {
                throw TagDumpFileError(line: line, "\"\(key)\" has unknown (??) bytes")
            }
            if let count, !count.contains(known.count) {
                throw TagDumpFileError(line: line, "\"\(key)\" must have \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound)–\(count.upperBound)") bytes, not \(known.count)")
            }
            return known
        }
        func integer(_ key: String, _ range: ClosedRange<Int>) throws(TagDumpFileError) -> Int {
            let (line, text) = try value(key)
            guard let n = Int(text), range.contains(n) else { throw TagDumpFileError(line: line, "\"\(key)\" must be \(range.lowerBound)…\(range.upperBound)") }
            return n
        }
        let (typeLine, deviceType) = try value("Device type")
        let uid = try bytes("UID", count: 4 ... 10)
        func nfcA() throws(TagDumpFileError) -> (atqa: [UInt8], sak: UInt8) {
            var atqa = try bytes("ATQA", count: 2 ... 2)
            if version == 2 { atqa.reverse() } // version 2 wrote the ATQA LSB first
            return (atqa, try bytes("SAK", count: 1 ... 1)[0])
        }

        let legacyType2 = version < 4 ? product(flipperName: String(deviceType)) : nil
        if deviceType == "NTAG/Ultralight" || deviceType == "Mifare Ultralight" || legacyType2 != nil {
            guard uid.count == 7 || uid.count == 4 else { throw TagDumpFileError(line: fields["UID"]?.line, "a Type 2 UID has 7 bytes") }
            let (atqa, sak) = try nfcA()
            var chip = legacyType2
            if let named = fields["NTAG/Ultralight type"] {
                guard let known = product(flipperName: String(named.value)) else {
                    throw TagDumpFileError(line: named.line, "a Type 2 chip nfctap has no memory map for")
                }
                chip = known
            }
            guard let chip, let total = chip.totalPages else { throw TagDumpFileError(line: typeLine, "no known Type 2 chip named") }
            let pagesTotal = try integer("Pages total", 1 ... 1024)
            guard pagesTotal == total else {
                throw TagDumpFileError(line: fields["Pages total"]?.line, "a \(chip) has \(total) pages, not \(pagesTotal)")
            }
            let pagesRead = fields["Pages read"] == nil ? total : try integer("Pages read", 0 ... total)
            var pages: [[UInt8]?] = []
            for i in 0 ..< total {
                pages.append(i < pagesRead ? try bytes("Page \(i)", count: 4 ... 4) : nil)
            }
            let signature = fields["Signature"] == nil ? nil : try bytes("Signature", count: 32 ... 32)
            let mifareVersion = fields["Mifare version"] == nil ? nil : try bytes("Mifare version", count: 8 ... 8)
            return TagDump(uid: uid, atqa: atqa, sak: sak, memory: .type2(Type2Memory(
                product: chip, version: mifareVersion.flatMap { $0.allSatisfy { $0 == 0 } ? nil : $0 },
                signature: signature.flatMap { $0.allSatisfy { $0 == 0 } ? nil : $0 }, pages: pages)))
        }
        if deviceType == "Mifare Classic" {
            let (atqa, sak) = try nfcA()
            let (line, typeText) = try value("Mifare Classic type")
            let layout: MifareClassicLayout
            switch typeText {
            case "1K": layout = .classic1K
            case "4K": layout = .classic4K
            case "MINI", "Mini": layout = .mini
            default: throw TagDumpFileError(line: line, "a MIFARE Classic type nfctap does not know (1K, 4K, MINI)")
            }
            var blocks: [[UInt8?]] = []
            for i in 0 ..< layout.blockCount {
                guard let (blockLine, text) = fields["Block \(i)"] else {
                    blocks.append([UInt8?](repeating: nil, count: 16)) // not in the file: unknown
                    continue
                }
                let block = try hexBytes(text, line: blockLine)
                guard block.count == 16 else { throw TagDumpFileError(line: blockLine, "a block has 16 bytes, not \(block.count)") }
                blocks.append(block)
            }
            if let extra = order.first(where: { $0.hasPrefix("Block ") && Int($0.dropFirst(6)).map { $0 >= layout.blockCount } ?? false }) {
                throw TagDumpFileError(line: fields[extra]?.line, "a block beyond the \(layout.blockCount) of a \(layout.productName)")
            }
            return TagDump(uid: uid, atqa: atqa, sak: sak, memory: .mifareClassic(MifareClassicMemory(layout: layout, blocks: blocks)))
        }
        if ["ISO15693-3", "ISO15693", "SLIX", "SLIX-S", "SLIX-L", "SLIX2"].contains(String(deviceType)) {
            guard uid.count == 8 else { throw TagDumpFileError(line: fields["UID"]?.line, "an ISO 15693 UID has 8 bytes") }
            let count = try integer("Block Count", 1 ... 256)
            let size = Int(try bytes("Block Size", count: 1 ... 1)[0])
            guard (1 ... 32).contains(size) else { throw TagDumpFileError(line: fields["Block Size"]?.line, "\"Block Size\" must be 01…20 (hex)") }
            let data = try bytes("Data Content", count: count * size ... count * size)
            var security: [UInt8]?
            if let status = fields["Security Status"] {
                let parsed = try bytes("Security Status", count: count ... count + 1)
                // Before the lock-bit keys, the first byte held the DSFID/AFI lock bits.
                security = parsed.count == count + 1 ? Array(parsed.dropFirst()) : parsed
                if fields["Lock DSFID"] != nil, parsed.count != count {
                    throw TagDumpFileError(line: status.line, "\"Security Status\" must have \(count) bytes")
                }
            }
            func optionalByte(_ key: String) throws(TagDumpFileError) -> UInt8? {
                fields[key] == nil ? nil : try bytes(key, count: 1 ... 1)[0]
            }
            return TagDump(uid: uid, memory: .iso15693(ISO15693Memory(
                dsfid: try optionalByte("DSFID"), afi: try optionalByte("AFI"), icReference: try optionalByte("IC Reference"),
                blockSize: size, blocks: (0 ..< count).map { Array(data[$0 * size ..< ($0 + 1) * size]) }, security: security)))
        }
        throw TagDumpFileError(line: typeLine, "a device type nfctap cannot emulate (NTAG/Ultralight, Mifare Classic, ISO15693-3 and SLIX are)")
    }

    /// "04 A1 ?? FF" → bytes, nil for `??`.
    static func hexBytes(_ text: Substring, line: Int) throws(TagDumpFileError) -> [UInt8?] {
        var out: [UInt8?] = []
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if token == "??" { out.append(nil); continue }
            guard token.utf8.count == 2, let byte = UInt8(token, radix: 16) else {
                throw TagDumpFileError(line: line, "not a list of two-digit hex bytes")
            }
            out.append(byte)
        }
        return out
    }

    private static func hexByte(_ byte: UInt8) -> String { [byte].hexString }
}
