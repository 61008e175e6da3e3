import Foundation
import NDEF
import Testing
@testable import TagEmulation

/// libnfc's own tools against the project's PN532 emulator on a pseudo-terminal
/// (`pn532_uart` driver, device named with `LIBNFC_DEVICE`: libnfc 1.8 honours it, and
/// `LIBNFC_DEFAULT_DEVICE`, but has no variable for another libnfc.conf).
@Suite("PN532 emulator with libnfc's tools", .serialized,
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc's tools (scripts/services/libnfc.sh)"))
struct PN532LibNFCToolsTests {
    @Test func nfcListPrintsTheType2Tag() throws {
        let emulator = PN532Emulator(tag: FixtureType2Tag())
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runLibNFCTool("nfc-list", ["-t", "1"], environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 ISO14443A passive target(s) found"))
        #expect(result.stdout.contains("ATQA (SENS_RES): 00  44"))
        #expect(result.stdout.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  80"))
        #expect(result.stdout.contains("SAK (SEL_RES): 00"))
        // libnfc's open sequence reached the chip first (specs §5).
        let log = emulator.commandLog
        #expect(Array(log.prefix(4)) == [[0x14, 0x01], [0x00, 0x00] + Array("libnfc".utf8), [0x02], [0x12, 0x14]])
        // ...and its close sequence last: InRelease, field off, PowerDown.
        #expect(Array(log.suffix(3)) == [[0x52, 0x00], [0x32, 0x01, 0x00], [0x16, 0xF0]])
    }

    @Test func nfcListPrintsTheISODEPTagWithItsATS() throws {
        let emulator = PN532Emulator(tag: FixtureISODEPTag())
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runLibNFCTool("nfc-list", ["-t", "1"], environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ATQA (SENS_RES): 00  04"))
        // (nfc-list labels a SAK-20 UID "NFCID3"; the bytes are what matter.)
        #expect(result.stdout.contains("): 08  12  34  56"))
        #expect(result.stdout.contains("SAK (SEL_RES): 20"))
        #expect(result.stdout.contains("ATS: 75  77  81  02  80"))
    }

    /// Every modulation nfc-list probes (FeliCa, B, B', SR, CT, iClass, Jewel, Barcode) gets a
    /// well-formed "nothing here", and the Type A tag is still found exactly once.
    @Test func nfcListSurvivesEveryModulationProbe() throws {
        let emulator = PN532Emulator(tag: FixtureType2Tag())
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runLibNFCTool("nfc-list", [], environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "passive target(s) found").count == 2)
        // (libnfc's own USB scan complains on machines without USB; the PN532 driver must not.)
        #expect(!result.stderr.contains("pn532"), "\(result.stderr)")
    }

    @Test func nfcMfultralightReadsTheMemoryByteExact() throws {
        let tag = FixtureType2Tag()
        let emulator = PN532Emulator(tag: tag)
        let path = try emulator.start()
        defer { emulator.stop() }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("dump.mfd").path
        let result = try runLibNFCTool("nfc-mfultralight", ["r", dump], environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("NTAG Type: NTAG213"))
        #expect(result.stdout.contains("Done, 45 of 45 pages read"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        #expect(bytes.hexString == tag.memory.hexString)
        // GET_VERSION went raw with a hand-made CRC_A, then 12 READs of 4 pages (0, 4, … 44).
        let log = emulator.plan.log
        #expect(log.first == [0x60])
        #expect(Array(log.dropFirst()) == stride(from: 0, through: 44, by: 4).map { [0x30, UInt8($0)] })
        #expect(emulator.commandLog.contains([0x42, 0x60, 0xF8, 0x32]))
    }

    /// The port can be closed and reopened: two tool runs against one emulator.
    @Test func clientsMayCloseAndReopenThePort() throws {
        let emulator = PN532Emulator(tag: FixtureType2Tag())
        let path = try emulator.start()
        defer { emulator.stop() }
        for _ in 0..<2 {
            let result = try runLibNFCTool("nfc-list", ["-t", "1"], environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("04  a1  b2  c3  d4  e5  80"))
        }
    }
}
