import Testing
import NDEF
@testable import ZebraPrinter

@Suite("ZPL, SGD and BLE helpers")
struct ZebraHelpersTests {
    @Test func zplTestLabel() {
        #expect(ZPL.testLabel == Array("~hi^XA^FO20,20^BY3^B3N,N,150,Y,N^FDHello World!^FS^XZ\r\n".utf8))
        #expect(ZPL.testLabel.count == 55)
        #expect(Array(ZPL.testLabel.prefix(6)) == [UInt8](hex: "7E 68 69 5E 58 41"))   // ~hi^XA
        #expect(Array(ZPL.testLabel.suffix(5)) == [UInt8](hex: "5E 58 5A 0D 0A"))      // ^XZ CR LF
    }

    @Test func hostStatusRequest() {
        #expect(ZPL.hostStatusRequest == [0x7E, 0x48, 0x53])  // ~HS
    }

    @Test func getvar() throws {
        let bytes = try SGD.getvar("bluetooth.le.controller_mode")
        #expect(bytes == Array("! U1 getvar \"bluetooth.le.controller_mode\"\r\n".utf8))
        #expect(Array(bytes.prefix(12)) == [UInt8](hex: "21 20 55 31 20 67 65 74 76 61 72 20"))
        #expect(Array(bytes.suffix(3)) == [0x22, 0x0D, 0x0A])
    }

    @Test func setvar() throws {
        #expect(try SGD.setvar("bluetooth.le.controller_mode", "both")
                == Array("! U1 setvar \"bluetooth.le.controller_mode\" \"both\"\r\n".utf8))
        #expect(try SGD.setvar("device.friendly_name", "Dock 3 printer")
                == Array("! U1 setvar \"device.friendly_name\" \"Dock 3 printer\"\r\n".utf8))
        #expect(try SGD.setvar("x", "") == Array("! U1 setvar \"x\" \"\"\r\n".utf8))
    }

    @Test(arguments: ["", "a\"b", "a b", "a\r\nb", "name\u{0}", "caf\u{E9}", String(repeating: "n", count: 257)])
    func getvarRejectsHostileNames(_ name: String) {
        #expect(throws: SGDError.invalidName(name)) { try SGD.getvar(name) }
        #expect(throws: SGDError.invalidName(name)) { try SGD.setvar(name, "v") }
    }

    @Test(arguments: ["x\"\r\n! U1 do \"device.reset\" \"\"", "a\nb", "tab\there", "\u{7F}", "\u{E9}",
                      String(repeating: "v", count: 257)])
    func setvarRejectsHostileValues(_ value: String) {
        #expect(throws: SGDError.invalidValue(value)) { try SGD.setvar("device.friendly_name", value) }
    }

    /// The caller's bad input is shown escaped, never echoed raw to a terminal.
    @Test func sgdErrorsEscapeWhatTheyQuote() {
        #expect(SGDError.invalidName("a\r\n\u{1B}[2J").description == #"SGD name "a\r\n\u{1B}[2J" is not allowed"#)
        #expect(SGDError.invalidValue("x\"y").description == #"SGD value "x\"y" is not allowed"#)
    }

    @Test func parseValue() throws {
        #expect(try SGD.parseValue(Array("\"both\"".utf8)) == "both")
        #expect(try SGD.parseValue(Array("\"le\"\r\n".utf8)) == "le")
        #expect(try SGD.parseValue(Array("\r\n \"classic\" \r\n".utf8)) == "classic")
        #expect(try SGD.parseValue(Array("\"\"".utf8)) == "")
        #expect(try SGD.parseValue(Array("\"Dock 3 printer\"".utf8)) == "Dock 3 printer")
        #expect(try SGD.parseValue(Array("\"Caf\u{E9}\"".utf8)) == "Caf\u{E9}")
    }

    @Test func parseValueErrors() throws {
        #expect(throws: SGDError.incompleteReply) { try SGD.parseValue([]) }
        #expect(throws: SGDError.incompleteReply) { try SGD.parseValue([0x0D, 0x0A]) }
        #expect(throws: SGDError.incompleteReply) { try SGD.parseValue(Array("\"bo".utf8)) }
        #expect(throws: SGDError.malformedReply) { try SGD.parseValue(Array("both".utf8)) }
        #expect(throws: SGDError.malformedReply) { try SGD.parseValue(Array("\"a\" x".utf8)) }
        #expect(throws: SGDError.malformedReply) { try SGD.parseValue(Array("\"a\"\"b\"".utf8)) }
        #expect(throws: SGDError.unknownSetting) { try SGD.parseValue(Array("\"?\"".utf8)) }
        #expect(throws: SGDError.invalidReplyValue) { try SGD.parseValue([0x22, 0x61, 0x00, 0x22]) }
        #expect(throws: SGDError.invalidReplyValue) { try SGD.parseValue([0x22, 0x61, 0x1B, 0x22]) }
        #expect(throws: SGDError.invalidReplyValue) { try SGD.parseValue([0x22, 0xFF, 0x22]) }
        #expect(throws: SGDError.replyTooLong(limit: 1024)) {
            try SGD.parseValue([0x22] + [UInt8](repeating: 0x61, count: 1023) + [0x22])
        }
        #expect(try SGD.parseValue([0x22] + [UInt8](repeating: 0x61, count: 1022) + [0x22]).count == 1022)
    }

    @Test func zebraUUIDs() {
        #expect(ZebraBLE.parserService.description == "38eb4a80-c570-11e3-9507-0002a5d5c51b")
        #expect(ZebraBLE.fromPrinterData.description == "38eb4a81-c570-11e3-9507-0002a5d5c51b")
        #expect(ZebraBLE.toPrinterData.description == "38eb4a82-c570-11e3-9507-0002a5d5c51b")
        #expect(ZebraBLE.parserService.short == nil)
        #expect(ZebraBLE.deviceInformationService.description == "0000180a-0000-1000-8000-00805f9b34fb")
        #expect(ZebraBLE.deviceInformationService.short == 0x180A)
        let characteristics = [ZebraBLE.modelNumber, ZebraBLE.serialNumber, ZebraBLE.firmwareRevision,
                               ZebraBLE.hardwareRevision, ZebraBLE.softwareRevision, ZebraBLE.manufacturerName]
        #expect(characteristics.map(\.short) == [0x2A24, 0x2A25, 0x2A26, 0x2A27, 0x2A28, 0x2A29])
        #expect(ZebraBLE.manufacturerName.description == "00002a29-0000-1000-8000-00805f9b34fb")
        #expect(ZebraSPP.serialPortService.description == "00001101-0000-1000-8000-00805f9b34fb")
        #expect(ZebraSPP.rfcommChannel == 1)
    }

    @Test func bluetoothUUIDParsing() {
        #expect(BluetoothUUID(string: "180a") == ZebraBLE.deviceInformationService)
        #expect(BluetoothUUID(string: "0000180A") == ZebraBLE.deviceInformationService)
        #expect(BluetoothUUID(string: "0000180A-0000-1000-8000-00805F9B34FB") == ZebraBLE.deviceInformationService)
        #expect(BluetoothUUID(string: "38eb4a82-c570-11e3-9507-0002a5d5c51b") == ZebraBLE.toPrinterData)
        #expect(BluetoothUUID(string: "12345678")?.description == "12345678-0000-1000-8000-00805f9b34fb")
        #expect(BluetoothUUID(string: "12345678")?.short == nil)
        for bad in ["", "180", "180A0", "zzzz", "38EB4A80C570-11E3-9507-0002A5D5C51B-", "38EB4A80-C570-11E3-9507-0002A5D5C51",
                    "38EB4A80-C570-11E3-9507_0002A5D5C51B", "38EB4A80-C570-11E3-9507-0002A5D5C51G"] {
            #expect(BluetoothUUID(string: bad) == nil, "\(bad)")
        }
    }

    @Test func chunksAtDefaultMTU() {
        let data = (0..<50).map { UInt8($0) }
        let chunks = ZebraBLE.chunks(data, mtu: 23)
        #expect(chunks.map(\.count) == [20, 20, 10])
        #expect(chunks == [Array(data[0..<20]), Array(data[20..<40]), Array(data[40..<50])])
    }

    @Test func chunkSizes() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(ZebraBLE.chunks(data, mtu: 515).map(\.count) == [512, 488])
        #expect(ZebraBLE.chunks(data, mtu: 100_000).map(\.count) == [512, 488])       // 512: an attribute value's limit
        #expect(ZebraBLE.chunks(data, mtu: 24).first?.count == 21)
        #expect(ZebraBLE.chunks(data, mtu: 515).flatMap { $0 } == data)
        #expect(ZebraBLE.chunks(Array(data[..<20]), mtu: 23).map(\.count) == [20])
        #expect(ZebraBLE.chunks(Array(data[..<21]), mtu: 23).map(\.count) == [20, 1])
        #expect(ZebraBLE.chunks([], mtu: 23).isEmpty)
    }

    @Test(arguments: [22, 10, 3, 0, -1, Int.min])
    func mtuBelowMinimumIsRaisedTo23(_ mtu: Int) {
        #expect(ZebraBLE.chunks((0..<50).map { UInt8($0) }, mtu: mtu).map(\.count) == [20, 20, 10])
    }

    @Test func mtuMaximumIsClamped() {
        #expect(ZebraBLE.chunks([UInt8](repeating: 0, count: 1), mtu: Int.max).map(\.count) == [1])
    }
}
