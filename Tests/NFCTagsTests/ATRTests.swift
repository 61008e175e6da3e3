import NDEF
import NFCTags
import Testing
import TestSupport

@Suite("ATR parsing and contactless classification")
struct ATRTests {
    static let ultralight = "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"

    @Test("the spec's Ultralight/NTAG ATR: whole structure")
    func ultralightStructure() throws {
        let atr = try ATR(bytes: T4.hex(Self.ultralight))
        #expect(atr.convention == .direct)
        #expect(atr.interfaceBytes == [ATR.InterfaceBytes(td: 0x80), ATR.InterfaceBytes(td: 0x01)])
        #expect(atr.protocols == [0, 1])
        #expect(atr.historicalBytes == T4.hex("80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00"))
        #expect(atr.tck == 0x68)
        #expect(atr.contactless == .storageCard(standard: 0x03, name: .mifareUltralight))
        #expect(atr.description == Self.ultralight)
    }

    struct StorageVector: Sendable, CustomTestStringConvertible {
        let atr: String
        let name: StorageCardName
        var testDescription: String { "\(name)" }
    }

    @Test("PC/SC storage card names", arguments: [
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A", name: .mifareClassic1K),
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 02 00 00 00 00 69", name: .mifareClassic4K),
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68", name: .mifareUltralight),
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3A 00 00 00 00 51", name: .mifareUltralightC),
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3D 00 00 00 00 56", name: .mifareUltralightEV1),
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3B 00 00 00 00 50", name: .felica),
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 26 00 00 00 00 4D", name: .mifareMini),
        StorageVector(atr: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 44 00 00 00 00 2F", name: .unknown(0x0044)),
    ])
    func storageCards(_ v: StorageVector) throws {
        let atr = try ATR(bytes: T4.hex(v.atr))
        #expect(atr.contactless == .storageCard(standard: 0x03, name: v.name))
        // The builder produces the same bytes (one table, both directions).
        #expect(ATR.storageCard(name: v.name).bytes == T4.hex(v.atr))
        #expect(StorageCardName(code: v.name.code) == v.name)
    }

    @Test("3B 80 80 01 01: ISO 14443-4 without historical bytes")
    func iso14443NoHistory() throws {
        let atr = try ATR(bytes: T4.hex("3B 80 80 01 01"))
        #expect(atr.historicalBytes.isEmpty)
        #expect(atr.tck == 0x01)
        #expect(atr.contactless == .iso14443_4(historicalBytes: []))
        #expect(try ATR.iso14443_4(historicalBytes: []).bytes == T4.hex("3B 80 80 01 01"))
    }

    @Test("a Type 4 tag (DESFire / NTAG 424) with ATS historical byte 80")
    func iso14443WithHistory() throws {
        let atr = try ATR(bytes: T4.hex("3B 81 80 01 80 80"))
        #expect(atr.contactless == .iso14443_4(historicalBytes: [0x80]))
        #expect(try ATR.iso14443_4(historicalBytes: [0x80]).bytes == T4.hex("3B 81 80 01 80 80"))
        let many = try ATR(bytes: T4.hex("3B 88 80 01 00 00 00 00 77 81 81 00 7E"))
        #expect(many.contactless == .iso14443_4(historicalBytes: T4.hex("00 00 00 00 77 81 81 00")))
    }

    @Test("more than 15 historical bytes cannot be built")
    func tooManyHistorical() {
        #expect(throws: ATRError.self) { try ATR.iso14443_4(historicalBytes: [UInt8](repeating: 0, count: 16)) }
    }

    @Test("a contact card with TA1, TB1, TC1 and a TD chain (YubiKey 4)")
    func contactChain() throws {
        let atr = try ATR(bytes: T4.hex("3B F8 13 00 00 81 31 FE 15 59 75 62 69 6B 65 79 34 D4"))
        #expect(atr.interfaceBytes == [
            ATR.InterfaceBytes(ta: 0x13, tb: 0x00, tc: 0x00, td: 0x81),
            ATR.InterfaceBytes(td: 0x31),
            ATR.InterfaceBytes(ta: 0xFE, tb: 0x15),
        ])
        #expect(atr.protocols == [1])
        #expect(atr.historicalBytes == Array("Yubikey4".utf8))
        #expect(atr.tck == 0xD4)
        #expect(atr.contactless == .other)
    }

    @Test("T=0 only: no TCK; TA1 without TD1")
    func t0Only() throws {
        let atr = try ATR(bytes: T4.hex("3B 16 96 41 73 74 72 69 64"))
        #expect(atr.interfaceBytes == [ATR.InterfaceBytes(ta: 0x96)])
        #expect(atr.protocols == [0])
        #expect(atr.tck == nil)
        #expect(atr.historicalBytes == Array("Astrid".utf8))
        #expect(atr.contactless == .other)
    }

    @Test("inverse convention TS 3F")
    func inverse() throws {
        let atr = try ATR(bytes: T4.hex("3F 65 25 08 36 04 6C 90 00"))
        #expect(atr.convention == .inverse)
        #expect(atr.interfaceBytes == [ATR.InterfaceBytes(tb: 0x25, tc: 0x08)])
        #expect(atr.historicalBytes == T4.hex("36 04 6C 90 00"))
        #expect(atr.contactless == .other)
    }

    @Test("the contactless pattern needs exactly TD1 80 and TD2 01")
    func notContactless() throws {
        // TD2 = 11 (T=1 with TA3) breaks the pattern even though it starts 3B 8n 80.
        let atr = try ATR(bytes: T4.hex("3B 81 80 11 FE 80 6E"))
        #expect(atr.contactless == .other)
        // A storage-card-like descriptor with a foreign RID is an ISO 14443-4 card's history.
        let foreign = try ATR(bytes: T4.hex("3B 8F 80 01 80 4F 0C A0 00 00 03 07 03 00 03 00 00 00 00 69"))
        #expect(foreign.contactless == .iso14443_4(historicalBytes: T4.hex("80 4F 0C A0 00 00 03 07 03 00 03 00 00 00 00")))
    }

    struct BadVector: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: String
        let error: ATRError
        var testDescription: String { name }
    }

    @Test("hostile ATRs are typed errors", arguments: [
        BadVector(name: "empty", bytes: "", error: .empty),
        BadVector(name: "TS only", bytes: "3B", error: .truncated("T0")),
        BadVector(name: "bad TS", bytes: "3A 00", error: .invalidInitialCharacter(0x3A)),
        BadVector(name: "TD2 missing", bytes: "3B 8F 80", error: .truncated("TD2")),
        BadVector(name: "TB1 missing", bytes: "3B 20", error: .truncated("TB1")),
        BadVector(name: "historical bytes cut", bytes: "3B 8F 80 01 80 4F", error: .truncated("historical bytes")),
        BadVector(name: "TCK missing", bytes: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00", error: .missingCheckByte),
        BadVector(name: "wrong TCK", bytes: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 69",
                  error: .checksumMismatch(expected: 0x68, actual: 0x69)),
        BadVector(name: "trailing byte after TCK", bytes: "3B 80 80 01 01 00", error: .unexpectedTrailingBytes(1)),
        BadVector(name: "trailing byte, T=0 only", bytes: "3B 02 14 50 00", error: .unexpectedTrailingBytes(1)),
        BadVector(name: "34 bytes", bytes: "3B 0F" + String(repeating: " 00", count: 32), error: .tooLong(34)),
        BadVector(name: "TD chain running off the end", bytes: "3B 80" + String(repeating: " 80", count: 31), error: .truncated("TD32")),
    ])
    func hostile(_ v: BadVector) {
        #expect(throws: v.error) { try ATR(bytes: T4.hex(v.bytes)) }
    }

    @Test("every proper prefix of a valid ATR is rejected, never trapped on")
    func prefixes() {
        for text in [Self.ultralight, "3B F8 13 00 00 81 31 FE 15 59 75 62 69 6B 65 79 34 D4", "3B 81 80 01 80 80"] {
            let bytes = T4.hex(text)
            for n in 0..<bytes.count {
                #expect(throws: ATRError.self) { try ATR(bytes: Array(bytes.prefix(n))) }
            }
        }
    }

    @Test("random bytes parse or fail with ATRError")
    func random() {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<2000 {
            let n = Int(rng.next() % 40)
            var bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if !bytes.isEmpty, rng.next() % 2 == 0 { bytes[0] = 0x3B }
            do {
                let atr = try ATR(bytes: bytes)
                #expect(atr.bytes == bytes)
                _ = atr.contactless
            } catch {
                #expect(!error.description.isEmpty)  // an ATRError (typed throws), never a trap
            }
        }
    }
}

@Suite("ATS parsing")
struct ATSTests {
    @Test("TL, T0 with TA/TB/TC, historical bytes")
    func full() throws {
        let ats = try ATS(bytes: T4.hex("06 77 77 71 02 80"))
        #expect(ats.formatByte == 0x77)
        #expect(ats.ta1 == 0x77 && ats.tb1 == 0x71 && ats.tc1 == 0x02)
        #expect(ats.historicalBytes == [0x80])
    }

    @Test("only TB1 present")
    func partial() throws {
        let ats = try ATS(bytes: T4.hex("05 20 81 C1 05"))
        #expect(ats.ta1 == nil && ats.tb1 == 0x81 && ats.tc1 == nil)
        #expect(ats.historicalBytes == T4.hex("C1 05"))
    }

    @Test("TL alone")
    func tlOnly() throws {
        let ats = try ATS(bytes: [0x01])
        #expect(ats.formatByte == nil && ats.historicalBytes.isEmpty)
    }

    @Test("malformed ATS", arguments: ["", "00", "06 77 77", "03 70 01", "02 10 AA"])
    func malformed(_ text: String) {
        #expect(throws: ATRError.self) { try ATS(bytes: T4.hex(text)) }
    }
}
