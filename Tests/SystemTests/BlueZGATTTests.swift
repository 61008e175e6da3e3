import Foundation
import SDBus
import Testing
@testable import Pairing
import ZebraPrinter

/// Bluetooth LE printers: GATT service resolution, Device Information, chunked writes and
/// reassembled replies, against the Zebra additions in Fixtures/bluez_zebra.py.
extension BlueZSystemTests {
    @Suite struct BlueZGATTTests {
        static let mac = "5C:F8:21:8D:C9:9B"
        static let devicePath = "/org/bluez/hci0/dev_5C_F8_21_8D_C9_9B"
        static let writePath = devicePath + "/service0028/char002b"
        static let printer = PrinterIdentity(serial: "50J163001771", model: "ZD41H23-D0PE00EZ",
                                             bluetoothLE: MACAddress(bytes: [0x5C, 0xF8, 0x21, 0x8D, 0xC9, 0x9B]))
        var options: PairingOptions { PairingOptions(discoveryTimeout: .seconds(5), pairTimeout: .seconds(10), servicesTimeout: .seconds(5)) }

        func startPrinter(mtu: UInt16 = 23) throws -> BlueZMock {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.mock("AddZebraLEPrinter", [.string("hci0"), .string(Self.mac), .string("50J163001771"), .uint16(mtu)])
            return mock
        }

        @Test func pairsConnectsAndReadsDeviceInformation() throws {
            let mock = try startPrinter()
            let result = try BlueZPairingHandler(busAddress: mock.address).pair(Self.printer, options: options)
            let expected = BluetoothPairing(
                address: Self.printer.bluetoothLE!, transport: .le, adapter: "hci0", devicePath: Self.devicePath,
                discovered: false, trusted: true, connected: true,
                deviceInformation: DeviceInformation(model: "ZD410-203dpi ZPL", serial: "50J163001771", firmware: "V84.20.18Z",
                                                     hardware: nil, software: nil, manufacturer: "Zebra Technologies"))
            #expect(result == .paired(expected))
            #expect(try mock.property(Self.devicePath, "org.bluez.Device1", "ServicesResolved") == .bool(true))
        }

        @Test func writesInMTUSizedChunksWithResponse() throws {
            let mock = try startPrinter()
            let link = try BlueZPairingHandler(busAddress: mock.address).openLink(to: Self.printer, options: options)
            defer { link.close() }
            let zpl = Array("^XA^FO20,20^A0N,25,25^FDnfctap 50 bytes^FS^XZ\r\n...".utf8)
            try #require(zpl.count == 50)
            try link.send(zpl)
            let writes = try mock.calls(Self.writePath, "WriteValue")
            #expect(writes.map { $0.first?.byteArray ?? [] } == [Array(zpl[0..<20]), Array(zpl[20..<40]), Array(zpl[40..<50])])
            #expect(writes.allSatisfy { $0.count == 2 && $0[1].stringKeyed == ["type": .string("request")] })
        }

        @Test func chunkSizeFollowsTheNegotiatedMTU() throws {
            let mock = try startPrinter(mtu: 185)
            let link = try BlueZPairingHandler(busAddress: mock.address).openLink(to: Self.printer, options: options)
            defer { link.close() }
            try link.send([UInt8](repeating: 0x41, count: 400))
            #expect(try mock.calls(Self.writePath, "WriteValue").map { $0.first?.byteArray?.count ?? 0 } == [182, 182, 36])
        }

        /// The ZQ630 Plus `~HS` reply (docs/zebra.md §3), split over indications at awkward places.
        @Test func hostStatusReplyIsReassembledFromSeveralIndications() throws {
            let reply: [UInt8] =
                [0x02] + Array("159,1,0,0249,000,0,0,0,000,0,0,0".utf8) + [0x03, 0x0D, 0x0A] +
                [0x02] + Array("000,0,0,0,0,2,6,0,00000000,1,000".utf8) + [0x03, 0x0D, 0x0A] +
                [0x02] + Array("0000,0".utf8) + [0x03, 0x0D, 0x0A]
            let chunks = [Array(reply[0..<20]), Array(reply[20..<37]), Array(reply[37..<40]), Array(reply[40..<60]), Array(reply[60...])]
            let mock = try startPrinter()
            let link = try BlueZPairingHandler(busAddress: mock.address).openLink(to: Self.printer, options: options)
            defer { link.close() }
            #expect(try mock.property(Self.devicePath + "/service0028/char0029", "org.bluez.GattCharacteristic1", "Notifying") == .bool(true))
            try mock.mock("QueueReply", [.string(Self.mac), .array(elementType: "ay", chunks.map { .bytes($0) })])
            let status = try PrinterConversation(link: link).hostStatus(timeout: .seconds(5))
            #expect(status == (try PrinterStatus(parsing: reply)))
            #expect(status.paperOut && status.printMode == .tearOff)
            #expect(try mock.calls(Self.writePath, "WriteValue").map { $0.first?.byteArray ?? [] } == [Array("~HS".utf8)])
        }

        @Test func anIncompleteReplyTimesOutWithWhatArrived() throws {
            let mock = try startPrinter()
            let link = try BlueZPairingHandler(busAddress: mock.address).openLink(to: Self.printer, options: options)
            defer { link.close() }
            // Line 1 and the start of line 2 of a valid reply, then silence.
            let partial: [UInt8] = [0x02] + Array("159,1,0,0249,000,0,0,0,000,0,0,0".utf8) + [0x03, 0x0D, 0x0A, 0x02, 0x30]
            try mock.mock("QueueReply", [.string(Self.mac), .array(elementType: "ay", [.bytes(partial)])])
            #expect(throws: PairingError.replyTimeout(received: 38)) {
                try PrinterConversation(link: link).hostStatus(timeout: .milliseconds(300))
            }
        }

        @Test func aPrinterWithoutTheZebraServiceIsAClearError() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "not-a-zebra")
            // A plain device resolves no services: the mock's Connect never sets ServicesResolved.
            var options = options
            options.servicesTimeout = .milliseconds(300)
            #expect(throws: PairingError.servicesNotResolved(Self.printer.bluetoothLE!)) {
                try BlueZPairingHandler(busAddress: mock.address).openLink(to: Self.printer, options: options)
            }
        }
    }
}

/// DBusValue marshalling through a real bus: dbusmock echoes a variant back.
extension BlueZSystemTests {
    @Suite struct DBusMarshallingSystemTests {
        @Test func valuesRoundTripThroughTheBus() throws {
            let mock = try BlueZMock()
            _ = try mock.control.call(destination: "org.bluez", path: "/", interface: "org.freedesktop.DBus.Mock", member: "AddMethod",
                                      arguments: [.string("org.nfctap.Test"), .string("Echo"), .string("v"), .string("v"), .string("ret = args[0]")])
            let values: [DBusValue] = [
                .byte(0xFF), .bool(true), .int16(-2), .uint16(65535), .int32(-3), .uint32(4_000_000_000),
                .int64(-5), .uint64(6), .double(1.5), .string("héllo \"w\"\n"), .objectPath("/org/bluez/hci0"),
                .bytes([0, 1, 254]), .bytes([]), .strings(["a", "b"]),
                .properties(["Transport": .string("le"), "UUIDs": .strings([])]),
                .structure([.string("x"), .uint32(1)]),
            ]
            for v in values {
                let reply = try mock.control.call(destination: "org.bluez", path: "/", interface: "org.nfctap.Test",
                                                  member: "Echo", arguments: [.variant(v)])
                #expect(reply == [.variant(v)], "round trip of \(v.signature)")
            }
        }

        @Test func aStringWithNULIsRefusedBeforeSending() throws {
            let mock = try BlueZMock(start: false)
            #expect(throws: DBusError.self) {
                try mock.control.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                      interface: "org.freedesktop.DBus", member: "NameHasOwner", arguments: [.string("a\0b")])
            }
        }
    }
}
