import Foundation
import NDEF
import Testing

/// `nfctap decode` on Zebra printer tags: the `"zebra"` object and the human lines.
@Suite struct ZebraDecodeCLITests {
    static func hex(_ uri: String) throws -> String {
        try NDEFMessage(records: [NDEFRecord.uri(uri)]).encoded().hexString
    }

    @Test func jsonCarriesThePrinterIdentity() throws {
        let uri = "http://www.zebra.com/apps/r/nfc?mE=00074d6c9e65&mW=000000000000&mBL=5cf8218dc99b&c=ZD41H23-D0PE00EZ&s=50J163001771&v=0"
        let r = try runCLI(["decode", "--json", try Self.hex(uri)])
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let zebra = try #require(object["zebra"] as? [String: Any])
        #expect(zebra["serial"] as? String == "50J163001771")
        #expect(zebra["model"] as? String == "ZD41H23-D0PE00EZ")
        #expect(zebra["bluetoothLE"] as? String == "5C:F8:21:8D:C9:9B")
        #expect(zebra["ethernet"] as? String == "00:07:4D:6C:9E:65")
        #expect(zebra["bluetooth"] is NSNull)
        #expect(zebra["wifi"] is NSNull)
        #expect(r.stdout.range(of: "\"records\":[")!.lowerBound < r.stdout.range(of: "\"zebra\":")!.lowerBound)
    }

    @Test func humanOutputNamesThePrinter() throws {
        let uri = "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0"
        let r = try runCLI(["decode", try Self.hex(uri)])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Zebra printer: serial XXZFJ170700336, model ZQ320-A0E02T0-00"))
        #expect(r.stdout.contains("Bluetooth Classic: CC:78:AB:3E:BA:E0"))
    }

    @Test func lookalikeHostIsNotAZebraTag() throws {
        let r = try runCLI(["decode", "--json", try Self.hex("http://zebra.com@evil.example/apps/r/nfc?mB=cc78ab3ebae0&s=X")])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("\"zebra\""))
        #expect(!r.stdout.contains("zebraError"))
    }

    @Test func brokenZebraQueryIsReportedNotHidden() throws {
        let r = try runCLI(["decode", "--json", try Self.hex("http://www.zebra.com/apps/r/nfc?mB=zz78ab3ebae0&s=XXZFJ170700336")])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"zebraError\":"))
        #expect(r.stdout.contains("mB"))
    }

    @Test("a broadcast, multicast or all-zero Bluetooth MAC is reported as no printer address", arguments: [
        ("mB=ffffffffffff", "broadcast"), ("mBL=01005e000001", "multicast"), ("mB=000000000000", "all zeros"),
    ])
    func groupAddressIsNoPrinter(field: String, reason: String) throws {
        let r = try runCLI(["decode", "--json", try Self.hex("http://www.zebra.com/apps/r/nfc?\(field)&s=XXZFJ170700336")])
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["zebra"] == nil)
        let error = try #require(object["zebraError"] as? String)
        #expect(error.contains("is not a printer address"))
        #expect(error.contains(reason))
    }
}
