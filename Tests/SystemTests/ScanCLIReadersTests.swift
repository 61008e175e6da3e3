import Foundation
import NDEF
import NFCReaders
import ReaderCore
import NFCTags
import TagEmulation
import Testing

// Ring 3: `nfctap readers` and `scan` with a configured libnfc device (the PN532 emulator on a
// pseudo-terminal, named by LIBNFC_DEVICE) next to the test pcscd's vpcd readers.
extension PCSCSystemTests {
    @Suite("nfctap readers and scan with libnfc", .enabled(if: SystemEnvironment.available("libnfc")))
    struct ScanCLIReadersTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let ntagATR = "3B8F8001804F0CA0000003060300030000000068"

        @Test func readersListsTheConfiguredLibNFCDeviceWithItsTag() throws {
            let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0x81), ndef: ScanVectors.uriMessage)
            let emulator = PN532Emulator(tag: tag)
            let path = try emulator.start()
            defer { emulator.stop() }
            let result = try runCLI(["readers", "--json"], environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = try JSONDecoder().decode([ReaderLine].self, from: Data(result.stdout.utf8))
            #expect(lines == [
                ReaderLine(name: ScanVectors.reader0, backend: "pcsc", feedback: false, tag: nil),
                ReaderLine(name: ScanVectors.reader1, backend: "pcsc", feedback: false, tag: nil),
                ReaderLine(name: "libnfc:pn532_uart:\(path)", backend: "libnfc", feedback: false,
                           tag: .init(technology: "type2", atr: Self.ntagATR, uid: tag.uid.hexString)),
            ])
        }

        @Test func withoutPcscdTheLibNFCDeviceIsStillListed() throws {
            defer { try? TestPCSCD.control("start") }
            try TestPCSCD.control("stop")
            let emulator = PN532Emulator(tag: nil)
            let path = try emulator.start()
            defer { emulator.stop() }
            let result = try runCLI(["readers", "--json"], environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = try JSONDecoder().decode([ReaderLine].self, from: Data(result.stdout.utf8))
            #expect(lines == [ReaderLine(name: "libnfc:pn532_uart:\(path)", backend: "libnfc", feedback: false, tag: nil)])
            #expect(result.stderr.contains("PC/SC: \(PCSCBackend.serviceHint)"), "\(result.stderr)")
        }

        @Test func unopenableLibNFCDeviceIsNotListed() throws {
            let result = try runCLI(["readers", "--json"], environment: ["LIBNFC_DEVICE": "pn532_uart:/nonexistent/tty"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = try JSONDecoder().decode([ReaderLine].self, from: Data(result.stdout.utf8))
            #expect(lines.map(\.name) == [ScanVectors.reader0, ScanVectors.reader1])
        }

        @Test func scanReadsThroughTheLibNFCDevice() throws {
            let tag = try VirtualType2Tag(product: .ntag215, uid: ScanVectors.uid(0x82), ndef: ScanVectors.textMessage)
            let emulator = PN532Emulator(tag: tag)
            let path = try emulator.start()
            defer { emulator.stop() }
            let result = try runCLI(["scan", "--json", "--reader", "libnfc:", "--timeout", "20"],
                                    environment: ["LIBNFC_DEVICE": "pn532_uart:\(path)"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try ScanJSON.decode(result.stdout)
            #expect(report == ScanJSON(records: [.init(tnf: 1, type: "T", payload: "02737668656A", text: "hej", language: "sv")],
                                       uid: tag.uid.hexString, type: "type2", product: "NTAG215", capacity: 492,
                                       writable: true, reader: "libnfc:pn532_uart:\(path)"))
            #expect(result.stderr.contains("Hold a tag near libnfc:pn532_uart:\(path)…"), "\(result.stderr)")
        }
    }
}
