import CoreNFCLinux
import NDEF
import ReaderCore
import Testing
@testable import NFCTapKit

/// Issue 27 item 4: the ATR and reader facts nfctap prints (docs/tags-and-readers.md §3), without
/// readers: the explanation, pcsc-tools' list, the JSON fields and doctor's version parsing.
@Suite struct ATRFactsTests {
    static let ntagATR: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06,
                                   0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x68]

    /// A list in pcsc-tools' layout: comments, a plain pattern, a `..` wildcard pattern, a
    /// regular expression, a broken one, and lines that are neither.
    static let list = SmartcardList(text: """
        # smart card list
        #
        3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68
        \tRFID - ISO 14443 Type A - NXP Mifare Ultralight or UltralightC
        \tTempmate S1 Data Logger (Other)
        3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 .. 00 00 00 00 ..
        \tRFID - ISO 14443 Type A - any PC/SC storage card name
        3B 8[0-9A-F] 80 01 .*
        \tRFID - ISO 14443-4 card (regular expression)
        3B 8F 80 01 ([
        \tbroken pattern
        not an ATR line
        3B 81 80 01 80 80
        \tOne historical byte
        """, path: "smartcard_list.txt")

    @Test func aStorageCardATRIsExplainedFieldByFieldAndMatchedInTheList() {
        let lines = ATRExplanation.lines(atr: Self.ntagATR, list: Self.list)
        #expect(lines == [
            "PC/SC storage card: RID A0 00 00 03 06 (PC/SC workgroup), standard 03 (ISO 14443 A part 3), card name 00 03 (MIFARE Ultralight / NTAG21x)",
            "smartcard_list.txt: RFID - ISO 14443 Type A - NXP Mifare Ultralight or UltralightC",
            "smartcard_list.txt: Tempmate S1 Data Logger (Other)",
            "smartcard_list.txt: RFID - ISO 14443 Type A - any PC/SC storage card name",
            "smartcard_list.txt: RFID - ISO 14443-4 card (regular expression)",
        ])
    }

    @Test func anISODEPCardAndUnknownATRs() {
        #expect(ATRExplanation.lines(atr: [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80], list: Self.list) == [
            "ISO 14443-4 card: historical bytes 80",
            "smartcard_list.txt: RFID - ISO 14443-4 card (regular expression)",
            "smartcard_list.txt: One historical byte",
        ])
        // A contact card: not in the list, said so.
        #expect(ATRExplanation.lines(atr: [0x3B, 0x02, 0x14, 0x50], list: Self.list) == [
            "not a PC/SC contactless ATR (a contact card, or a reader's own format)",
            "not in smartcard_list.txt",
        ])
        #expect(ATRExplanation.lines(atr: []) == ["no ATR"])
        #expect(ATRExplanation.lines(atr: [0x3B, 0x8F])[0].hasPrefix("ATR does not parse"))
    }

    @Test func wildcardsMatchOneCharacterAndLengthsMustAgree() {
        #expect(SmartcardList.matches("3B 8. 80", "3B 8F 80"))
        #expect(!SmartcardList.matches("3B 8. 80", "3B 8F 80 01"))
        #expect(!SmartcardList.matches("3B 8F 80 01 ([", "3B 8F 80 01 ("), "a pattern that does not compile matches nothing")
        #expect(SmartcardList(path: "/nonexistent/smartcard_list.txt") == nil)
    }

    @Test func scanJSONCarriesTheATRAndTheATQAAndSAKWhenKnown() {
        var tag = DetectedTag(reader: ReaderInfo(name: "R", backend: .libnfc), technology: .type2,
                              uid: [0x04, 0x01], atr: Self.ntagATR, presence: 1)
        #expect(TagReportJSON.identificationFields(tag).map(\.0) == ["atr"], "PC/SC: the ATR only")
        tag.atqa = [0x00, 0x44]
        tag.sak = 0x00
        let fields = TagReportJSON.identificationFields(tag)
        #expect(fields.map(\.0) == ["atr", "atqa", "sak"])
        #expect(fields.map(\.1) == [.string(Self.ntagATR.hexString), .string("0044"), .string("00")])
        tag.atr = []
        #expect(TagReportJSON.identificationFields(tag).map(\.0) == ["atqa", "sak"])
    }

    @Test func doctorReadsTheVersionsFromWhatTheToolsPrint() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            \t<key>CFBundleName</key>\n\t<string>CCIDCLASSDRIVER</string>
            \t<key>CFBundleShortVersionString</key>
            \t<string>1.5.2</string>
            </dict></plist>
            """
        #expect(PCSCVersionCheck.bundleVersion(plist) == "1.5.2")
        #expect(PCSCVersionCheck.bundleVersion("<key>CFBundleShortVersionString</key><string>$(rm -rf)</string>") == nil)
        #expect(PCSCVersionCheck.bundleVersion("") == nil)
        #expect(PCSCVersionCheck.pcscdVersion(fromOutput: "pcsc-lite version 1.9.9.\nCopyright (C) 1999-2002 …") == "1.9.9")
        #expect(PCSCVersionCheck.pcscdVersion(fromOutput: "usage: pcscd") == nil)
    }
}
