import Testing
import NDEF
@testable import ZebraPrinter

@Suite("Zebra tag URLs: real printers and accepted forms")
struct ZebraTagTests {
    @Test func zq320() throws {
        let id = try ZebraTag.identity(fromURI: RealTags.zq320)
        #expect(id == PrinterIdentity(serial: "XXZFJ170700336", model: "ZQ320-A0E02T0-00",
                                      bluetooth: mac("cc78ab3ebae0"), bluetoothLE: nil, wifi: nil,
                                      ethernet: nil, version: "0", otherFields: []))
        #expect(id.bluetooth?.description == "CC:78:AB:3E:BA:E0")
    }

    @Test func zq510() throws {
        let id = try ZebraTag.identity(fromURI: RealTags.zq510)
        #expect(id == PrinterIdentity(serial: "XXRAJ151700742", model: "ZQ51-AUN010A-00",
                                      bluetooth: mac("ac3fa449af4d"), bluetoothLE: nil, wifi: mac("ac3fa449af4c"),
                                      ethernet: nil, version: "0", otherFields: []))
        #expect(id.wifi?.description == "AC:3F:A4:49:AF:4C")
        #expect(id.bluetooth?.description == "AC:3F:A4:49:AF:4D")
    }

    @Test func zd410UsesBluetoothLE() throws {
        let id = try ZebraTag.identity(fromURI: RealTags.zd410)
        #expect(id == PrinterIdentity(serial: "50J163001771", model: "ZD41H23-D0PE00EZ",
                                      bluetooth: nil, bluetoothLE: mac("5cf8218dc99b"), wifi: nil,
                                      ethernet: mac("00074d6c9e65"), version: "0", otherFields: []))
        #expect(id.bluetoothLE?.description == "5C:F8:21:8D:C9:9B")
        #expect(id.ethernet?.description == "00:07:4D:6C:9E:65")
    }

    @Test func qln320UpperCaseMACFirstKey() throws {
        let id = try ZebraTag.identity(fromURI: RealTags.qln320)
        #expect(id == PrinterIdentity(serial: "XXQLJ112600422", model: "QN3-AUBA0E01-00",
                                      bluetooth: nil, bluetoothLE: mac("00225832C75F"), wifi: nil,
                                      ethernet: nil, version: "0", otherFields: []))
        #expect(id.bluetoothLE?.description == "00:22:58:32:C7:5F")
    }

    /// docs/zebra.md §1: the ZQ510/ZD410 dumps are `D1 01 6C 55 01 "zebra.com/…v=0"`.
    @Test func ndefURIRecordPayload() throws {
        for uri in [RealTags.zq510, RealTags.zd410] {
            let rest = Array(uri.utf8.dropFirst("http://www.".utf8.count))
            let record: [UInt8] = [0xD1, 0x01, 0x6C, 0x55, 0x01] + rest
            #expect(Int(record[2]) == record.count - 4)
            let id = try ZebraTag.identity(fromURIPayload: Array(record[4...]))
            #expect(id == (try ZebraTag.identity(fromURI: uri)))
        }
        let https = try ZebraTag.identity(fromURIPayload: [0x04] + Array("zebra.com/apps/r/nfc?s=A".utf8))
        #expect(https.serial == "A")
        let none = try ZebraTag.identity(fromURIPayload: [0x00] + Array("http://zebra.com/apps/r/nfc?s=B".utf8))
        #expect(none.serial == "B")
    }

    @Test func ndefURIRecordPayloadErrors() {
        #expect(throws: ZebraTagError.unsupportedURIPrefix(nil)) { try ZebraTag.identity(fromURIPayload: []) }
        #expect(throws: ZebraTagError.unsupportedURIPrefix(0x05)) {
            try ZebraTag.identity(fromURIPayload: [0x05] + Array("zebra.com/apps/r/nfc?s=A".utf8))
        }
        #expect(throws: ZebraTagError.hostNotZebra("evil.example")) {
            try ZebraTag.identity(fromURIPayload: [0x03] + Array("evil.example/apps/r/nfc?s=A".utf8))
        }
        // Invalid UTF-8 becomes U+FFFD (EF BF BD): rejected as a URI character where it stands.
        #expect(throws: ZebraTagError.invalidCharacter(byte: 0xEF, offset: 31)) {
            try ZebraTag.identity(fromURIPayload: [0x03] + Array("zebra.com/apps/r/nfc?s=A".utf8) + [0xFF])
        }
        #expect(throws: ZebraTagError.uriTooLong(length: 2011, limit: 1024)) {
            try ZebraTag.identity(fromURIPayload: [0x01] + [UInt8](repeating: 0x61, count: 2000))
        }
    }

    /// Every order of the ZQ320's six fields decodes to the same identity (720 orders).
    @Test func keyOrderDoesNotMatter() throws {
        let fields = ["mE=000000000000", "mW=", "mB=cc78ab3ebae0", "c=ZQ320-A0E02T0-00", "s=XXZFJ170700336", "v=0"]
        let expected = try ZebraTag.identity(fromURI: RealTags.zq320)
        var count = 0
        func permute(_ done: [String], _ rest: [String]) throws {
            if rest.isEmpty {
                let uri = "http://www.zebra.com/apps/r/nfc?" + done.joined(separator: "&")
                #expect(try ZebraTag.identity(fromURI: uri) == expected, "\(uri)")
                count += 1
                return
            }
            for i in rest.indices {
                var r = rest
                let f = r.remove(at: i)
                try permute(done + [f], r)
            }
        }
        try permute([], fields)
        #expect(count == 720)
    }

    @Test func unknownKeysKeptInOrder() throws {
        let id = try ZebraTag.identity(fromURI:
            "http://www.zebra.com/apps/r/nfc?z=1&s=SER1&a=x%20y&mB=cc78ab3ebae0&mb=lower&q=&k=a+b")
        #expect(id.serial == "SER1")
        #expect(id.bluetooth == mac("cc78ab3ebae0"))
        #expect(id.otherFields == [QueryField(key: "z", value: "1"), QueryField(key: "a", value: "x y"),
                                   QueryField(key: "mb", value: "lower"), QueryField(key: "q", value: ""),
                                   QueryField(key: "k", value: "a+b")])
    }

    @Test func emptyAndZeroMACsAreAbsent() throws {
        let id = try ZebraTag.identity(fromURI: "http://zebra.com/apps/r/nfc?mE=&mW=000000000000&mBL=00-00-00-00-00-00&mB=cc78ab3ebae0&s=S")
        #expect(id == PrinterIdentity(serial: "S", bluetooth: MACAddress(string: "cc78ab3ebae0")))
    }

    @Test func onlyZeroBluetoothMACsAreNoPrinterAddress() throws {
        #expect(throws: ZebraTagError.notADeviceAddress(key: "mB", value: "00:00:00:00:00:00", reason: .allZero)) {
            try ZebraTag.identity(fromURI:
                "http://zebra.com/apps/r/nfc?mE=&mW=000000000000&mB=00:00:00:00:00:00&mBL=00-00-00-00-00-00&s=S")
        }
        #expect(throws: ZebraTagError.notADeviceAddress(key: "mBL", value: "000000000000", reason: .allZero)) {
            try ZebraTag.identity(fromURI: "http://www.zebra.com/apps/r/nfc?mBL=000000000000&c=ZD410&s=S")
        }
        // No Bluetooth field at all (an Ethernet-only printer) is not refused here.
        #expect(try ZebraTag.identity(fromURI: "http://www.zebra.com/apps/r/nfc?mE=00074d6c9e65&s=S").bluetooth == nil)
    }

    @Test func bothBluetoothMACsReported() throws {
        let id = try ZebraTag.identity(fromURI:
            "http://www.zebra.com/apps/r/nfc?mB=cc78ab3ebae0&mBL=cc78ab3ebae1&s=S")
        #expect(id.bluetooth?.description == "CC:78:AB:3E:BA:E0")
        #expect(id.bluetoothLE?.description == "CC:78:AB:3E:BA:E1")
    }

    @Test(arguments: ["cc78ab3ebae0", "CC78AB3EBAE0", "Cc78aB3eBaE0", "CC:78:AB:3E:BA:E0",
                      "cc-78-ab-3e-ba-e0", "cc%3A78%3Aab%3A3e%3Aba%3Ae0"])
    func macCaseAndSeparatorsFold(_ written: String) throws {
        let id = try ZebraTag.identity(fromURI: "http://www.zebra.com/apps/r/nfc?mB=\(written)&s=S")
        #expect(id.bluetooth?.description == "CC:78:AB:3E:BA:E0")
        #expect(id.bluetooth?.bytes == [0xCC, 0x78, 0xAB, 0x3E, 0xBA, 0xE0])
    }

    @Test(arguments: ["http://www.zebra.com/apps/r/nfc?s=S", "http://zebra.com/apps/r/nfc?s=S",
                      "https://www.zebra.com/apps/r/nfc?s=S", "HTTP://WWW.ZEBRA.COM/apps/r/nfc?s=S",
                      "hTtPs://ZeBrA.cOm/apps/r/nfc?s=S", "http://www.zebra.com:80/apps/r/nfc?s=S",
                      "https://zebra.com:443/apps/r/nfc?s=S"])
    func acceptedForms(_ uri: String) throws {
        #expect(try ZebraTag.identity(fromURI: uri) == PrinterIdentity(serial: "S"))
        #expect(ZebraTag.isZebraURI(uri))
    }

    @Test func emptyOptionalTextFieldsAreAbsent() throws {
        let id = try ZebraTag.identity(fromURI: "http://www.zebra.com/apps/r/nfc?c=&v=&s=S")
        #expect(id.model == nil)
        #expect(id.version == nil)
    }

    @Test func plusIsLiteralAndEmptyFieldsAreSkipped() throws {
        let id = try ZebraTag.identity(fromURI: "http://www.zebra.com/apps/r/nfc?&s=AB+C&&v=0&")
        #expect(id.serial == "AB+C")
        #expect(id.version == "0")
        #expect(id.otherFields.isEmpty)
    }

    @Test func serialLengthLimit() throws {
        let longest = String(repeating: "S", count: ZebraTag.maxFieldLength)
        #expect(try ZebraTag.identity(fromURI: "http://www.zebra.com/apps/r/nfc?s=\(longest)").serial == longest)
        let tooLong = longest + "S"
        #expect(throws: ZebraTagError.invalidField(key: "s", value: tooLong, reason: .tooLong(limit: 64))) {
            try ZebraTag.identity(fromURI: "http://www.zebra.com/apps/r/nfc?s=\(tooLong)")
        }
    }

    @Test func longestURIAccepted() throws {
        let head = "http://www.zebra.com/apps/r/nfc?s=S&x="
        let uri = head + String(repeating: "a", count: ZebraTag.maxURILength - head.utf8.count)
        #expect(uri.utf8.count == 1024)
        #expect(try ZebraTag.identity(fromURI: uri).otherFields.first?.value.count == 1024 - head.utf8.count)
    }

    @Test func isZebraURIIgnoresQuery() {
        #expect(ZebraTag.isZebraURI("http://zebra.com/apps/r/nfc?garbage&&%zz"))
        #expect(!ZebraTag.isZebraURI("http://www.zebra.com.evil.example/apps/r/nfc?s=S"))
        #expect(!ZebraTag.isZebraURI("http://zebra.com@evil.example/apps/r/nfc?s=S"))
        #expect(!ZebraTag.isZebraURI(""))
    }
}
