import Foundation
import Testing
@testable import Pairing
import ZebraPrinter

/// BlueZ pairing against python3-dbusmock's bluez5 template on the private bus (ring 3).
/// Serialized: every test runs its own mock, and each claims the same name `org.bluez`.
extension BlueZSystemTests {
    @Suite struct BlueZPairingTests {
        static let mac = "CC:78:AB:3E:BA:E0"
        static let devicePath = "/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0"
        static let printer = PrinterIdentity(serial: "XXZFJ170700336", model: "ZQ320-A0E02T0-00",
                                             bluetooth: MACAddress(bytes: [0xCC, 0x78, 0xAB, 0x3E, 0xBA, 0xE0]))
        static let device = "org.bluez.Device1"
        static let adapter = "org.bluez.Adapter1"

        var fast: PairingOptions { PairingOptions(discoveryTimeout: .seconds(5), pairTimeout: .seconds(10), servicesTimeout: .seconds(5)) }

        func handler(_ mock: BlueZMock) -> BlueZPairingHandler { BlueZPairingHandler(busAddress: mock.address) }

        func expected(_ discovered: Bool) -> BluetoothPairing {
            BluetoothPairing(address: Self.printer.bluetooth!, transport: .classic, adapter: "hci0", devicePath: Self.devicePath,
                             discovered: discovered, trusted: true, connected: true)
        }

        @Test func pairsTrustsAndConnectsAKnownPrinter() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "XXZFJ170700336")
            let result = try handler(mock).pair(Self.printer, options: fast)
            #expect(result == .paired(expected(false)))
            #expect(try mock.property(Self.devicePath, Self.device, "Paired") == .bool(true))
            #expect(try mock.property(Self.devicePath, Self.device, "Trusted") == .bool(true))
            #expect(try mock.property(Self.devicePath, Self.device, "Connected") == .bool(true))
            #expect(try mock.calls(Self.devicePath, "Pair").count == 1)
            #expect(try mock.calls(Self.devicePath, "Connect").count == 1)
        }

        @Test func pairingTwiceIsIdempotent() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "XXZFJ170700336")
            _ = try handler(mock).pair(Self.printer, options: fast)
            let again = try handler(mock).pair(Self.printer, options: fast)
            #expect(again == .alreadyPaired(expected(false)))
            #expect(try mock.calls(Self.devicePath, "Pair").count == 1)      // not asked again
            #expect(try mock.calls(Self.devicePath, "Connect").count == 1)   // already connected
        }

        @Test func alreadyPairedElsewhereIsNotPairedAgain() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "XXZFJ170700336")
            try mock.mock("PairDevice", [.string("hci0"), .string(Self.mac), .int32(0)])
            #expect(try handler(mock).pair(Self.printer, options: fast) == .alreadyPaired(expected(false)))
            #expect(try mock.calls(Self.devicePath, "Pair").isEmpty)
            #expect(try mock.property(Self.devicePath, Self.device, "Trusted") == .bool(true))
        }

        @Test func findsAnUnknownPrinterByDiscovery() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.mock("AddDeviceOnDiscovery", [.string("hci0"), .string(Self.mac), .string("XXZFJ170700336")])
            let result = try handler(mock).pair(Self.printer, options: fast)
            #expect(result == .paired(expected(true)))
            let filters = try mock.calls("/org/bluez/hci0", "SetDiscoveryFilter")
            #expect(filters == [[.properties(["Transport": .string("bredr")])]])
            #expect(try mock.calls("/org/bluez/hci0", "StartDiscovery").count == 1)
            #expect(try mock.calls("/org/bluez/hci0", "StopDiscovery").count == 1)
            #expect(try mock.property("/org/bluez/hci0", Self.adapter, "Discovering") == .bool(false))
        }

        @Test func aPrinterThatNeverAppearsTimesOutClearly() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            var options = fast
            options.discoveryTimeout = .milliseconds(300)
            #expect(throws: PairingError.printerNotFound(Self.printer.bluetooth!, seconds: 0.3)) {
                try handler(mock).pair(Self.printer, options: options)
            }
            #expect(try mock.calls("/org/bluez/hci0", "StopDiscovery").count == 1)
            #expect(try mock.property("/org/bluez/hci0", Self.adapter, "Discovering") == .bool(false))
        }

        @Test func noAdapter() throws {
            let mock = try BlueZMock()
            #expect(throws: PairingError.noAdapter) { try handler(mock).pair(Self.printer, options: fast) }
            try mock.addAdapter()
            var options = fast
            options.adapter = "hci1"
            #expect(throws: PairingError.adapterNotFound("hci1")) { try handler(mock).pair(Self.printer, options: options) }
        }

        @Test func namedAdapterIsUsed() throws {
            let mock = try BlueZMock()
            try mock.addAdapter("hci0")
            try mock.addAdapter("hci1")
            try mock.addDevice(Self.mac, name: "XXZFJ170700336", adapter: "hci1")
            var options = fast
            options.adapter = "hci1"
            guard case .paired(let details) = try handler(mock).pair(Self.printer, options: options) else {
                Issue.record("not paired"); return
            }
            #expect(details.adapter == "hci1")
            #expect(details.devicePath == "/org/bluez/hci1/dev_CC_78_AB_3E_BA_E0")
        }

        @Test func anAdapterThatIsOffIsPoweredOn() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "XXZFJ170700336")
            try mock.set("/org/bluez/hci0", Self.adapter, "Powered", .bool(false))
            #expect(try handler(mock).pair(Self.printer, options: fast) == .paired(expected(false)))
            #expect(try mock.property("/org/bluez/hci0", Self.adapter, "Powered") == .bool(true))
        }

        @Test func anAdapterThatCannotBePoweredIsAClearError() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.mock("LockAdapterPower", [.string("hci0")])
            do {
                _ = try handler(mock).pair(Self.printer, options: fast)
                Issue.record("paired with the adapter off")
            } catch PairingError.adapterPowerFailed(let adapter, let reason) {
                #expect(adapter == "hci0")
                #expect(reason == "org.bluez.Error.Failed: Powered: Blocked through rfkill")
            }
        }

        @Test(arguments: [
            ("org.bluez.Error.AuthenticationFailed", BlueZFailure.Kind.authenticationFailed),
            ("org.bluez.Error.AuthenticationRejected", .authenticationRejected),
            ("org.bluez.Error.ConnectionAttemptFailed", .connectionAttemptFailed),
            ("org.bluez.Error.AuthenticationTimeout", .authenticationTimeout),
        ])
        func aRefusedPairingKeepsBlueZsReason(name: String, kind: BlueZFailure.Kind) throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "XXZFJ170700336")
            try mock.mock("FailPairing", [.string("hci0"), .string(Self.mac), .string(name), .string("refused by test")])
            #expect(throws: PairingError.bluez(BlueZFailure(operation: "Pair", address: Self.mac, name: name, message: "refused by test"))) {
                try handler(mock).pair(Self.printer, options: fast)
            }
            #expect(BlueZFailure(operation: "Pair", address: Self.mac, name: name, message: "").kind == kind)
            #expect(try mock.property(Self.devicePath, Self.device, "Paired") == .bool(false))
            #expect(try mock.property(Self.devicePath, Self.device, "Trusted") == .bool(false))
        }

        @Test func theAgentConfirmsNumericComparisonWhileBlueZPairs() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "XXZFJ170700336")
            try mock.mock("PairViaAgent", [.string("hci0"), .string(Self.mac), .string("RequestConfirmation")])
            #expect(try handler(mock).pair(Self.printer, options: fast) == .paired(expected(false)))
            #expect(try mock.property(Self.devicePath, Self.device, "Paired") == .bool(true))
            // Registered for the pairing only.
            let registered = try mock.calls("/org/bluez", "UnregisterAgent")
            #expect(registered == [[.objectPath("/org/nfctap/agent")]])
        }

        @Test func aPINRequestIsRefusedWithoutAPINAndAnsweredWithOne() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice(Self.mac, name: "XXZFJ170700336")
            try mock.mock("PairViaAgent", [.string("hci0"), .string(Self.mac), .string("RequestPinCode")])
            do {
                _ = try handler(mock).pair(Self.printer, options: fast)
                Issue.record("paired without a PIN")
            } catch PairingError.bluez(let f) {
                #expect(f.kind == .authenticationRejected)
                #expect(f.message == "agent refused: org.bluez.Error.Rejected")
            }
            var options = fast
            options.pin = "1234"
            #expect(try handler(mock).pair(Self.printer, options: options) == .paired(expected(false)))
        }

        @Test func noBluetoothDaemon() throws {
            let bus = try BlueZMock(start: false)
            #expect(throws: PairingError.bluetoothServiceUnavailable) {
                try BlueZPairingHandler(busAddress: bus.address).pair(Self.printer, options: fast)
            }
        }
    }
}
