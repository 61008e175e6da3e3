import LibNFC
import NDEF
import NFCTags
import Testing
@testable import NFCReaders

@Suite("CRC_A, synthesized ATRs and device configuration")
struct LibNFCCRCAndATRTests {
    @Test(arguments: [
        ("", "63 63"),          // initial value only
        ("00 00", "A0 1E"),     // ISO/IEC 14443-3 Annex B example
        ("12 34", "26 CF"),     // ISO/IEC 14443-3 Annex B example
        ("30 00", "02 A8"),     // READ page 0
        ("60", "F8 32"),        // GET_VERSION
        ("50 00", "57 CD"),     // HLTA
        ("A2 04 03 00 FE 00", "E2 51"),
    ])
    func crcAVectors(frame: String, crc: String) throws {
        let bytes = try #require([UInt8](hex: frame))
        #expect(crcA(bytes).hexString(separator: " ") == crc)
        #expect(appendingCRCA(bytes) == bytes + (try #require([UInt8](hex: crc))))
    }

    /// The project's CRC_A and libnfc's iso14443a_crc_append agree on many frames.
    @Test func crcAMatchesLibNFC() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<64 {
            let frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(appendingCRCA(frame) == LibNFCDevice.appendingCRCA(frame), "\(frame.hexString)")
        }
    }

    @Test func strippingCRCARejectsBadOrShortFrames() {
        #expect(strippingCRCA([0x60, 0xF8, 0x32]) == [0x60])
        #expect(strippingCRCA([0x60, 0xF8, 0x33]) == nil)
        #expect(strippingCRCA([0xF8]) == nil)
        #expect(strippingCRCA([]) == nil)
    }

    @Test func storageCardATRForUltralightAndNTAG() {
        // docs/tags-and-readers.md §3: the Ultralight/NTAG ATR a PC/SC reader builds.
        #expect(SynthesizedATR.storageCard(cardName: [0x00, 0x03]).hexString(separator: " ")
                == "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")
        let target = LibNFCTarget(atqa: [0x00, 0x44], sak: 0x00, uid: [4, 1, 2, 3, 4, 5, 6])
        let described = SynthesizedATR.describe(target)
        #expect(described.technology == .type2)
        #expect(described.atr.hexString == "3B8F8001804F0CA0000003060300030000000068")
        #expect(described.historical.isEmpty)
        // MIFARE Classic 1K: card name 00 01, MIFARE Classic (never Type 2); SAK 28 likewise, 20 is ISO-DEP.
        let classic = SynthesizedATR.describe(LibNFCTarget(atqa: [0x00, 0x04], sak: 0x08, uid: [1, 2, 3, 4]))
        #expect(classic.technology == .mifareClassic)
        #expect(SynthesizedATR.describe(LibNFCTarget(atqa: [0x00, 0x02], sak: 0x18, uid: [1, 2, 3, 4])).technology == .mifareClassic)
        #expect(SynthesizedATR.describe(LibNFCTarget(atqa: [0x00, 0x04], sak: 0x10, uid: [1, 2, 3, 4])).technology == .other)
        #expect(Array(classic.atr[13...14]) == [0x00, 0x01])
        #expect(classic.atr.last == classic.atr.dropFirst().dropLast().reduce(0, ^))
    }

    @Test func isoDEPATRFromTheATS() {
        // ATS (without TL) 75 77 81 02 80: T0 = 75 announces TA, TB, TC; historical byte 80.
        let target = LibNFCTarget(atqa: [0x00, 0x04], sak: 0x20, uid: [8, 1, 2, 3], ats: [0x75, 0x77, 0x81, 0x02, 0x80])
        let described = SynthesizedATR.describe(target)
        #expect(described.technology == .type4)
        #expect(described.historical == [0x80])
        #expect(described.atr.hexString(separator: " ") == "3B 81 80 01 80 80")
        // No historical bytes: the spec's example.
        #expect(SynthesizedATR.isoDEP(historicalBytes: []).hexString(separator: " ") == "3B 80 80 01 01")
        // More than 15 historical bytes are cut to 15 (n is one nibble).
        let long = SynthesizedATR.isoDEP(historicalBytes: [UInt8](repeating: 0x41, count: 20))
        #expect(long[1] == 0x8F)
        #expect(long.count == 4 + 15 + 1)
    }

    @Test func historicalBytesFromHostileATS() {
        #expect(SynthesizedATR.historicalBytes(atsWithoutLength: []) == [])
        // T0 says TA, TB and TC follow but only one byte does: nothing, no trap.
        #expect(SynthesizedATR.historicalBytes(atsWithoutLength: [0x70, 0x77]) == [])
        // T0 alone, no interface bytes: the rest is historical.
        #expect(SynthesizedATR.historicalBytes(atsWithoutLength: [0x05, 0xC1, 0x05]) == [0xC1, 0x05])
    }

    @Test func deviceListPrecedence() {
        let conf = """
        # Allow device auto-detection (default: true)
        #device.connstring = "pn532_uart:/dev/ttyUSB9"
        device.name = "my reader"
        device.connstring = "pn532_uart:/dev/ttyUSB0"
        """
        #expect(LibNFCDeviceList.connstring(inConfig: conf) == "pn532_uart:/dev/ttyUSB0")
        #expect(LibNFCDeviceList.connstring(inConfig: "device.connstring = pn533_usb") == "pn533_usb")
        #expect(LibNFCDeviceList.connstring(inConfig: "#device.connstring = \"x\"\n") == nil)
        #expect(LibNFCDeviceList.configured(explicit: ["a"], environment: ["LIBNFC_DEVICE": "b"], configText: conf) == ["a"])
        #expect(LibNFCDeviceList.configured(explicit: nil, environment: ["LIBNFC_DEVICE": "b", "LIBNFC_DEFAULT_DEVICE": "c"], configText: conf) == ["b"])
        #expect(LibNFCDeviceList.configured(explicit: nil, environment: ["LIBNFC_DEFAULT_DEVICE": "c"], configText: conf) == ["c"])
        #expect(LibNFCDeviceList.configured(explicit: nil, environment: [:], configText: conf) == ["pn532_uart:/dev/ttyUSB0"])
        #expect(LibNFCDeviceList.configured(explicit: nil, environment: [:], configText: nil) == nil)
        #expect(LibNFCDeviceList.readerName("pn532_uart:/dev/pts/3") == "libnfc:pn532_uart:/dev/pts/3")
        #expect(LibNFCDeviceList.connstring(readerName: "libnfc:pn532_uart:/dev/pts/3") == "pn532_uart:/dev/pts/3")
        #expect(LibNFCDeviceList.connstring(readerName: "ACS ACR122U PICC Interface 00 00") == nil)
    }
}
