import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import RecordOutput
@testable import NFCTapKit
import TagEmulation
import Testing

/// `nfctap dump` and `emulate --dump` (docs/dump.md): a tag's memory read whole, written as
/// Flipper Zero's `.nfc` text and nfctap's JSON, and served again byte for byte. In-process
/// against the virtual reader backend; no daemons.
@Suite(.serialized) struct DumpRunTests {
    static func dump(_ tag: any VirtualTag, keys: [[UInt8]] = []) async throws -> TagDump {
        // An OMNIKEY passes ISO 15693 commands and MIFARE Classic authentication alike.
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"], profile: .omnikey)
        _ = backend.place(tag, on: "Virtual A")
        let readers = DeskReaders(environment: NFCReaderEnvironment(makeBackends: { [backend] },
                                                                    makeNDEFOperations: { try $0.ndefOperations(classicKeys: keys) }))
        return try await DumpRun(json: true, timeout: 60, readers: readers).run()
    }

    @Test("dump → .nfc / JSON → emulate --dump → dump is the same, byte for byte", arguments: [
        "ntag213", "ntag215", "ntag216", "blank-ntag213", "zebra-zq320", "classic-1k", "classic-4k", "blank-classic-1k",
        "icode-slix2", "st25dv04k", "tag-it-hfi-plus", "icode-slix2-label",
    ])
    func roundTrip(_ preset: String) async throws {
        let first = try await Self.dump(try VirtualTagCatalog.make(preset: preset))
        let text = FlipperNFCFile.text(of: first)
        #expect(try FlipperNFCFile.parse(text) == first)
        let json = JSONDocument.line(TagDumpJSON.value(first))
        #expect(try TagDumpFile.load(Data(json.utf8)) == first)
        let second = try await Self.dump(try VirtualTagCatalog.make(dump: try TagDumpFile.load(Data(text.utf8))))
        #expect(FlipperNFCFile.text(of: second) == text)
        #expect(JSONDocument.line(TagDumpJSON.value(second)) == json)
    }

    @Test("a Type 2 dump holds every page as the chip reads it (PWD and PACK as zeros), GET_VERSION and READ_SIG")
    func type2Pages() async throws {
        let tag = try #require(try VirtualTagCatalog.make(preset: "ntag215") as? VirtualType2Tag)
        let dump = try await Self.dump(tag)
        guard case let .type2(m) = dump.memory else { Issue.record("not a Type 2 dump"); return }
        #expect(m.product == .ntag215 && m.pages.count == 135 && m.pagesRead == 135)
        #expect(m.pages.prefix(133).flatMap { $0! } == Array(tag.memory.prefix(133 * 4)))
        #expect(m.pages[133] == [0, 0, 0, 0] && m.pages[134]?.prefix(2) == [0, 0])
        #expect(m.version == Type2Product.ntag215.versionBytes)
        #expect(m.signature == tag.originalitySignature)
        #expect(dump.uid == tag.uid && dump.atqa == [0x00, 0x44] && dump.sak == 0x00)
    }

    @Test("a MIFARE Classic sector no key opens is ?? in the dump, and stays unopenable when emulated; --keys opens it")
    func classicUnknownKey() async throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic1K, message: try NDEFMessage(records: [.uri("https://example.com/k")]).encoded())
        let secret: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC]
        var trailer = card.block(7)
        trailer.replaceSubrange(0 ..< 6, with: secret)
        trailer.replaceSubrange(10 ..< 16, with: secret)
        card.setBlock(7, trailer)
        let dump = try await Self.dump(card)
        guard case let .mifareClassic(m) = dump.memory else { Issue.record("not a Classic dump"); return }
        #expect(m.unreadSectors == [1])
        #expect(m.blocks[4 ..< 8].allSatisfy { $0.allSatisfy { $0 == nil } })
        // Other sectors: data as stored, the trailer with the key that opened it.
        #expect(m.blocks[1].map { $0! } == card.block(1))
        #expect(m.blocks[3].map { $0! } == card.block(3))
        #expect(m.blocks[11].map { $0! } == card.block(11))
        let text = FlipperNFCFile.text(of: dump)
        #expect(text.contains("Block 5: ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ??\n"))
        let again = try await Self.dump(try VirtualTagCatalog.make(dump: try FlipperNFCFile.parse(text)))
        #expect(again == dump)

        let opened = try await Self.dump(card, keys: [secret])
        guard case let .mifareClassic(all) = opened.memory else { return }
        #expect(all.unreadSectors.isEmpty)
        #expect(all.blocks.map { $0.map { $0! } } == card.blocks)
    }

    /// flipperdevices/flipperzero-firmware, applications/debug/unit_tests/resources/unit_tests/nfc/Slix_cap_default.nfc
    /// (commit 2ac5bee86b58925e5af875fe12267a773535b670): a real ICODE SLIX2 library label.
    static let flipperSLIX2 = """
Filetype: Flipper NFC device
Version: 4
# Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, NTAG/Ultralight, Mifare Classic, Mifare DESFire, SLIX, ST25TB
Device type: SLIX
# UID is common for all formats
UID: E0 04 01 08 49 D0 DC 81
# ISO15693-3 specific data
# Data Storage Format Identifier
DSFID: 01
# Application Family Identifier
AFI: 3D
# IC Reference - Vendor specific meaning
IC Reference: 01
# Lock Bits
Lock DSFID: true
Lock AFI: true
# Number of memory blocks, valid range = 1..256
Block Count: 80
# Size of a single memory block, valid range = 01...20 (hex)
Block Size: 04
Data Content: 03 0A 82 ED 86 39 61 D2 03 14 1E 32 B6 CA 00 3C 36 42 0C 33 53 30 37 32 32 34 30 30 00 00 00 00 00 FF 04 01 01 00 00 00 A3 03 1E 00 26 00 00 00 00 00 0F 00 76 03 65 01 00 00 00 00 85 01 34 00 75 09 05 00 01 00 00 00 00 00 00 00 00 00 00 00 D7 FA 00 1C 9E 1C 67 27 00 30 30 30 30 30 30 30 30 30 30 00 00 00 97 25 55 08 00 00 00 00 00 00 00 00 00 00 00 00 00 00 32 8C 00 30 53 48 80 DE 00 00 00 00 F4 C3 58 2B 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 11 F3 00 2C DD C3 3E 91 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 E5 FF 00 01
# Block Security Status: 01 = locked, 00 = not locked
Security Status: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
# SLIX specific data
# SLIX capabilities field affects emulation modes. Possible options: Default, Accept all passwords
Capabilities: Default
# Passwords are optional. If a password is omitted, a default value will be used
Password Read: 00 00 00 00
Password Write: 00 00 00 00
Password Privacy: 0F 0F 0F 0F
Password Destroy: 0F 0F 0F 0F
Password EAS: 00 00 00 00
# This is the card's secp128r1 elliptic curve signature. It can not be calculated without knowing NXP's private key.
Signature: A6 25 54 03 74 24 C4 38 36 F4 89 70 76 1A 72 27 54 D9 E7 3D 38 CB 4C 1B 3E FD 0E DF 8A F6 7E 3D
Privacy Mode: false
# Protection pointer configuration
Protection Pointer: 32
Protection Condition: 02
# SLIX Lock Bits
Lock EAS: true
Lock PPL: true
"""

    @Test("Flipper's own SLIX2 dump reads, and emulated it answers with the same memory")
    func flipperSLIX2() async throws {
        let dump = try FlipperNFCFile.parse(Self.flipperSLIX2)
        #expect(dump.uid == VirtualISO15693Tag.flipperSLIX2UID)
        guard case let .iso15693(m) = dump.memory else { Issue.record("not an ISO 15693 dump"); return }
        #expect(m.dsfid == 0x01 && m.afi == 0x3D && m.icReference == 0x01 && m.blockSize == 4 && m.blocks.count == 80)
        #expect(m.blocks.flatMap { $0! } == VirtualISO15693Tag.flipperSLIX2Memory)
        #expect(m.security == [UInt8](repeating: 0, count: 80))
        let again = try await Self.dump(try VirtualTagCatalog.make(dump: dump))
        guard case let .iso15693(read) = again.memory else { return }
        #expect(read.blocks == m.blocks && read.dsfid == 0x01 && read.afi == 0x3D && again.uid == dump.uid)
    }

    @Test("older Flipper files: version 2's LSB-first ATQA, the chip in the device type")
    func legacyType2() throws {
        var lines = ["Filetype: Flipper NFC device", "Version: 2", "Device type: NTAG213", "UID: 04 85 92 8A A0 61 81",
                     "ATQA: 44 00", "SAK: 00", "Data format version: 1", "Pages total: 45"]
        for i in 0 ..< 45 { lines.append("Page \(i): 0\(i % 10) 00 00 00") }
        let dump = try FlipperNFCFile.parse(lines.joined(separator: "\n"))
        #expect(dump.atqa == [0x00, 0x44])
        guard case let .type2(m) = dump.memory else { Issue.record("not Type 2"); return }
        #expect(m.product == .ntag213 && m.pagesRead == 45 && m.pages[13] == [0x03, 0, 0, 0])
    }

    @Test("hostile or broken dump files are refused with the line, never a crash or a wrong tag", arguments: [
        ("Version: 4\nDevice type: NTAG/Ultralight", "Filetype"),
        ("Filetype: Flipper NFC device\nVersion: 1\nDevice type: UID", "line 2"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare DESFire\nUID: 04 01 02 03 04 05 06", "line 3"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nUID: 01 02 03 04\nATQA: 00 04\nSAK: 08\nMifare Classic type: 2K", "line 7"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nUID: 01 02 03 04\nATQA: 00 04\nSAK: 08\nMifare Classic type: 1K\nBlock 64: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", "beyond"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nUID: 01 02 03 04\nATQA: 00 04\nSAK: 08\nMifare Classic type: 1K\nBlock 3: 00 00 0G", "line 8"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nUID: 01 02 03 04\nATQA: 00 04\nSAK: 08\nMifare Classic type: 1K\nBlock 3: 00 00", "16 bytes"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nUID: 04 01 02 03 04 05 06\nATQA: 00 44\nSAK: 00\nNTAG/Ultralight type: NTAG215\nPages total: 45", "135 pages"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: ISO15693-3\nUID: E0 04 01 08 49 D0 DC 81\nBlock Count: 80\nBlock Size: 04\nData Content: 00 00", "320 bytes"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: ISO15693-3\nUID: E0 04 01\nBlock Count: 1\nBlock Size: 04\nData Content: 00 00 00 00", "UID"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: ISO15693-3\nUID: E0 04 01 08 49 D0 DC 81\nBlock Count: 300\nBlock Size: 04", "1…256"),
        ("Filetype: Flipper NFC device\nFiletype: Flipper NFC device", "twice"),
        ("Filetype: Flipper NFC device\n\u{1B}]0;pwned\u{07}", "line 2"),
    ])
    func hostileFiles(_ file: String, _ expected: String) {
        do {
            _ = try FlipperNFCFile.parse(file)
            Issue.record("accepted: \(file)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(!error.description.contains("pwned") && !error.description.contains("\u{1B}"))
        }
    }

    @Test("nfctap's JSON dumps refuse what does not fit the tag", arguments: [
        #"{"format":"nfctap-dump","version":1,"type":"type2","uid":"04010203040506","chip":"ntag213","pages":[]}"#,
        #"{"format":"nfctap-dump","version":2,"type":"type2","uid":"04010203040506"}"#,
        #"{"format":"nfctap-dump","version":1,"type":"mifareClassic","uid":"01020304","layout":"2k","blocks":[]}"#,
        #"{"format":"nfctap-dump","version":1,"type":"type5","uid":"E004010849D0DC81","blockSize":99,"blocks":["00"]}"#,
        #"{"format":"nfctap-dump","version":1,"type":"type5","uid":"E004","blockSize":4,"blocks":["00000000"]}"#,
        #"{"format":"other"}"#,
        "{",
    ])
    func hostileJSON(_ text: String) {
        #expect(throws: TagDumpFileError.self) { _ = try TagDumpFile.load(Data(text.utf8)) }
    }

    // MARK: MIFARE Classic dumps of other tools

    static let classicCard = VirtualMifareClassic.ndefFormatted(.classic1K, message: [0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62])

    @Test("nfc-mfclassic's .mfd / Proxmark's .bin: the image, UID, SAK and ATQA from block 0; emulated it reads as the card")
    func rawImage() async throws {
        let image = Self.classicCard.blocks.flatMap { $0 }
        let dump = try TagDumpFile.load(Data(image))
        #expect(dump.uid == Self.classicCard.uid && dump.sak == 0x08 && dump.atqa == [0x00, 0x04])
        guard case let .mifareClassic(m) = dump.memory else { Issue.record("not Classic"); return }
        #expect(m.layout == .classic1K && m.blocks.map { $0.map { $0! } } == Self.classicCard.blocks)
        let served = try await Self.dump(try VirtualTagCatalog.make(dump: dump))
        guard case let .mifareClassic(read) = served.memory else { return }
        #expect(read.blocks.map { $0.map { $0! } } == Self.classicCard.blocks)
        #expect(throws: TagDumpFileError.self) { _ = try TagDumpFile.load(Data([UInt8](repeating: 0x00, count: 1000))) }
        // An image whose bytes all happen to be printable is still an image, not a text file.
        let printable = try TagDumpFile.load(Data([UInt8](repeating: 0x41, count: 1024)))
        guard case let .mifareClassic(p) = printable.memory else { Issue.record("not Classic"); return }
        #expect(p.layout == .classic1K && p.blocks[5] == [UInt8?](repeating: 0x41, count: 16))
    }

    @Test("Proxmark's .eml (a block per line) and MIFARE Classic Tool's .mct (+Sector headers, '-' unknown, sectors left out)")
    func emlAndMCT() throws {
        let blocks = Self.classicCard.blocks
        let eml = blocks.map { $0.hexString.lowercased() }.joined(separator: "\n") + "\n"
        guard case let .mifareClassic(fromEML) = try TagDumpFile.load(Data(eml.utf8)).memory else { Issue.record("not Classic"); return }
        #expect(fromEML.blocks.map { $0.map { $0! } } == blocks)

        var mct = ""
        for sector in [0, 1, 3] {
            mct += "+Sector: \(sector)\n"
            for b in 0 ..< 4 {
                var line = blocks[sector * 4 + b].hexString
                if b == 3 { line = "------------" + line.dropFirst(12) }
                mct += line + "\n"
            }
        }
        let dump = try TagDumpFile.load(Data(mct.utf8))
        guard case let .mifareClassic(m) = dump.memory else { Issue.record("not Classic"); return }
        #expect(m.layout == .classic1K && m.unreadSectors == Array(0 ..< 16))  // key A unknown in 0, 1, 3; the rest left out
        #expect(m.blocks[4].map { $0! } == blocks[4] && m.blocks[7][0] == nil && m.blocks[7][6] == blocks[7][6])
        #expect(m.blocks[8].allSatisfy { $0 == nil })
        for bad in ["+Sector: 41\n", "00112233\n", "+Sector: 0\n" + String(repeating: String(repeating: "0", count: 32) + "\n", count: 5),
                    String(repeating: String(repeating: "0", count: 32) + "\n", count: 63)] {
            #expect(throws: TagDumpFileError.self) { _ = try TagDumpFile.load(Data(bad.utf8)) }
        }
    }

    @Test("Proxmark3's JSON dump (hf mf dump): Card and blocks")
    func proxmarkJSON() throws {
        var blocks: [String: String] = [:]
        for (i, b) in Self.classicCard.blocks.enumerated() { blocks[String(i)] = b.hexString }
        let object: [String: Any] = ["Created": "proxmark3", "FileType": "mfcard",
                                     "Card": ["UID": "5C2A9E41", "ATQA": "0400", "SAK": "08"], "blocks": blocks]
        let dump = try TagDumpFile.load(try JSONSerialization.data(withJSONObject: object))
        #expect(dump.uid == [0x5C, 0x2A, 0x9E, 0x41] && dump.atqa == [0x00, 0x04] && dump.sak == 0x08)
        guard case let .mifareClassic(m) = dump.memory else { Issue.record("not Classic"); return }
        #expect(m.blocks.map { $0.map { $0! } } == Self.classicCard.blocks)
        blocks["3"] = "00"
        let broken: [String: Any] = ["FileType": "mfcard", "blocks": blocks]
        #expect(throws: TagDumpFileError.self) { _ = try TagDumpFile.load(try JSONSerialization.data(withJSONObject: broken)) }
    }
}
