@testable import CoreNFCLinux
import Foundation
import Testing

@Suite("NFCISO7816APDU encoding and parsing")
struct NFCISO7816APDUTests {
    struct Vector: Sendable, CustomStringConvertible {
        let name: String
        let dataCount: Int
        let le: Int
        let hex: String
        var description: String { name }
    }

    static func body(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 & 0xFF) }) }

    // CLA INS P1 P2 = 00 B0 01 02 throughout; `…` stands for the data bytes 00 01 02 ….
    static let vectors: [Vector] = [
        Vector(name: "case 1", dataCount: 0, le: -1, hex: "00B00102"),
        Vector(name: "case 2S Le 1", dataCount: 0, le: 1, hex: "00B0010201"),
        Vector(name: "case 2S Le 255", dataCount: 0, le: 255, hex: "00B00102FF"),
        Vector(name: "case 2S Le 256 → 00", dataCount: 0, le: 256, hex: "00B0010200"),
        Vector(name: "case 2E Le 257", dataCount: 0, le: 257, hex: "00B00102000101"),
        Vector(name: "case 2E Le 65536 → 00 00", dataCount: 0, le: 65536, hex: "00B00102000000"),
        Vector(name: "case 3S", dataCount: 2, le: -1, hex: "00B00102020001"),
        Vector(name: "case 4S Le 256", dataCount: 2, le: 256, hex: "00B0010202000100"),
        Vector(name: "case 4E because of Le", dataCount: 2, le: 300, hex: "00B001020000020001012C"),
        Vector(name: "case 3E because of data", dataCount: 256, le: -1,
               hex: "00B00102000100" + (0..<256).map { [UInt8($0)].hexString }.joined()),
        Vector(name: "case 4E with data and Le 65536", dataCount: 256, le: 65536,
               hex: "00B00102000100" + (0..<256).map { [UInt8($0)].hexString }.joined() + "0000"),
    ]

    @Test("encodes each ISO 7816-4 case", arguments: vectors)
    func encode(_ v: Vector) throws {
        let apdu = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xB0, p1Parameter: 0x01, p2Parameter: 0x02,
                                  data: Self.body(v.dataCount), expectedResponseLength: v.le)
        #expect(try apdu.encoded().hexString == v.hex)
    }

    @Test("parses each ISO 7816-4 case back", arguments: vectors)
    func parse(_ v: Vector) throws {
        let apdu = try #require(NFCISO7816APDU(data: Data([UInt8](hex: v.hex)!)))
        #expect(apdu.instructionClass == 0x00 && apdu.instructionCode == 0xB0)
        #expect(apdu.p1Parameter == 0x01 && apdu.p2Parameter == 0x02)
        #expect((apdu.data ?? Data()) == Self.body(v.dataCount))
        #expect(apdu.expectedResponseLength == v.le)
        #expect(try apdu.encoded().hexString == v.hex)
    }

    @Test("the NDEF application SELECT from the spec")
    func selectNDEFApplication() throws {
        let apdu = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
                                  data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]), expectedResponseLength: 256)
        #expect(try apdu.encoded() == [UInt8](hex: "00 A4 04 00 07 D2 76 00 00 85 01 01 00")!)
    }

    @Test("malformed encodings parse to nil", arguments: [
        "", "00A404",                // too short
        "00A4040005D276",            // Lc 5, 2 bytes of data
        "00A4040002D2760000",        // Lc 2, 2 extra bytes
        "00A404000000",              // 00 then one byte: neither case 2S nor an extended length
    ])
    func malformed(_ hex: String) {
        #expect(NFCISO7816APDU(data: Data([UInt8](hex: hex)!)) == nil)
    }

    @Test("extended encodings with a bad Lc parse to nil", arguments: [
        "00B00102000000AA",          // extended Lc 0 followed by data
        "00B0010200000301",          // extended Lc 3, 1 byte of data
    ])
    func malformedExtended(_ hex: String) {
        #expect(NFCISO7816APDU(data: Data([UInt8](hex: hex)!)) == nil)
    }

    @Test("Le outside -1, 1…65536 and data over 65535 bytes are errors, not traps", arguments: [
        (0, 0, NFCReaderError.Code.readerErrorParameterOutOfBound),
        (0, -2, .readerErrorParameterOutOfBound),
        (0, 65537, .readerErrorParameterOutOfBound),
        (65536, -1, .readerErrorInvalidParameterLength),
    ])
    func invalid(_ count: Int, _ le: Int, _ expected: NFCReaderError.Code) {
        let apdu = NFCISO7816APDU(instructionClass: 0, instructionCode: 0, p1Parameter: 0, p2Parameter: 0,
                                  data: Data(count: count), expectedResponseLength: le)
        #expect(throws: NFCReaderError.self) { try apdu.encoded() }
        do {
            _ = try apdu.encoded()
        } catch let error as NFCReaderError {
            #expect(error.code == expected)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
