import Foundation
import NDEF
import NFCTags
import TagEmulation
import Testing

// Ring 3: `nfctap apdu` through pcscd + vpcd.
extension PCSCSystemTests {
    @Suite("nfctap apdu through pcscd")
    struct APDUCLITests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        struct Line: Decodable, Equatable {
            var apdu: String
            var data: String
            var sw: String
            var status: String
        }

        @Test func roundTripOnAType4Tag() throws {
            let t4 = VirtualType4Tag(version: .v2, ndef: ScanVectors.uriMessage, maxSize: 2048)
            let tag = try TagOnReader(t4, reader: 1)
            defer { tag.remove() }
            let result = try runCLI(["apdu", "--json", "--timeout", "20",
                                     "00A4040007D276000085010100",  // SELECT the NDEF application
                                     "00 A4 00 0C 02 E1 03",         // SELECT the CC file
                                     "00:B0:00:00:0F",               // READ BINARY 15 bytes
                                     "00FF0000"])                    // an INS no tag knows
            #expect(result.status == 0, "\(result.stderr)")
            let lines = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
            #expect(lines == [
                Line(apdu: "00A4040007D276000085010100", data: "", sw: "9000", status: "90 00 (success)"),
                Line(apdu: "00A4000C02E103", data: "", sw: "9000", status: "90 00 (success)"),
                Line(apdu: "00B000000F", data: t4.ccFile.hexString, sw: "9000", status: "90 00 (success)"),
                Line(apdu: "00FF0000", data: "", sw: "6D00", status: "6D 00 (instruction not supported)"),
            ])
            #expect(t4.ccFile.hexString == "000F2000F600F60406E10408000000")
        }

        @Test func humanOutput() throws {
            let tag = try TagOnReader(VirtualType4Tag(version: .v2, maxSize: 2048))
            defer { tag.remove() }
            let result = try runCLI(["apdu", "--timeout", "20", "00A4040007D2760000850102", "00A4040007D2760000850101",
                                     "00A4000C02E103", "00B0000002"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
                > 00 A4 04 00 07 D2 76 00 00 85 01 02
                < 6A 82 (file or application not found)
                > 00 A4 04 00 07 D2 76 00 00 85 01 01
                < 90 00 (success)
                > 00 A4 00 0C 02 E1 03
                < 90 00 (success)
                > 00 B0 00 00 02
                < 00 0F 90 00 (success)

                """)
        }

        @Test func aType2TagIsNotAnISO7816Card() throws {
            let tag = try TagOnReader(VirtualType2Tag.blankNTAG213(uid: ScanVectors.uid(0x71)))
            defer { tag.remove() }
            let result = try runCLI(["apdu", "00A4040007D276000085010100", "--timeout", "20"])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("not an ISO 7816 card"), "\(result.stderr)")
        }

        @Test func invalidAPDUsAreUsageErrorsBeforeWaiting() throws {
            // --timeout 0 would wait for ever: these must fail before the session starts.
            for bad in ["zz", "00A4", "00A4040005010203", "00 A4 04 00 05 01 02", "0", "00A4040000000000"] {
                let result = try runCLI(["apdu", "--timeout", "0", "00A4040000", bad], timeout: 20)
                #expect(result.status == 64, "\(bad): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
            let none = try runCLI(["apdu", "--timeout", "0"], timeout: 20)
            #expect(none.status == 64)
        }

        @Test func noCardBeforeTheTimeoutExits2() throws {
            let result = try runCLI(["apdu", "00A4040000", "--timeout", "1"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("no tag was presented within 1 s"))
        }
    }
}
