import Pairing
import Synchronization
import Testing
import ZebraPrinter

@Suite struct JSONPairingHandlerTests {
    static let zq320 = PrinterIdentity(serial: "XXZFJ170700336", model: "ZQ320-A0E02T0-00",
                                       bluetooth: MACAddress(bytes: [0xCC, 0x78, 0xAB, 0x3E, 0xBA, 0xE0]),
                                       wifi: nil, ethernet: MACAddress(bytes: [0, 0, 0, 0, 0, 0]), version: "0")

    @Test func printsOneExactLine() throws {
        let lines = Mutex<[String]>([])
        let result = try JSONPairingHandler { line in lines.withLock { $0.append(line) } }
            .pair(Self.zq320, options: PairingOptions())
        let expected = #"{"bluetooth":"CC:78:AB:3E:BA:E0","bluetoothLE":null,"ethernet":null,"model":"ZQ320-A0E02T0-00","other":[],"serial":"XXZFJ170700336","version":"0","wifi":null}"#
        #expect(lines.withLock { $0 } == [expected])
        #expect(result == .printed(expected))
    }

    @Test func hostileValuesStayOnOneLineAndUnknownFieldsKeepTheirOrder() {
        let identity = PrinterIdentity(serial: "a\"b\\c\nd\u{1}/é", bluetoothLE: MACAddress(bytes: [0x5C, 0xF8, 0x21, 0x8D, 0xC9, 0x9B]),
                                       otherFields: [QueryField(key: "z", value: "1"), QueryField(key: "a", value: "")])
        let line = IdentityJSON.line(identity)
        #expect(line == #"{"bluetooth":null,"bluetoothLE":"5C:F8:21:8D:C9:9B","ethernet":null,"model":null,"other":[{"key":"z","value":"1"},{"key":"a","value":""}],"serial":"a\"b\\c\nd\u0001/é","version":null,"wifi":null}"#)
        #expect(!line.contains("\n"))
    }

    @Test func describe() {
        #expect(JSONPairingHandler { _ in }.describe(Self.zq320, options: PairingOptions())
                == "would print printer XXZFJ170700336 as one JSON line on stdout")
    }
}
