import Glibc
import SDBus
import Testing
@testable import Pairing
import ZebraPrinter

@Suite struct BlueZHelperTests {
    static let cc = MACAddress(bytes: [0xCC, 0x78, 0xAB, 0x3E, 0xBA, 0xE0])!
    static let le = MACAddress(bytes: [0x5C, 0xF8, 0x21, 0x8D, 0xC9, 0x9B])!
    static let zero = MACAddress(bytes: [0, 0, 0, 0, 0, 0])!
    static let classic = PrinterIdentity(serial: "XXZFJ170700336", bluetooth: cc)
    static let leOnly = PrinterIdentity(serial: "50J163001771", bluetooth: zero, bluetoothLE: le)

    @Test func targetPrefersClassicThenLE() throws {
        #expect(try BlueZPairingHandler.target(for: Self.classic, options: PairingOptions()) == (Self.cc, .classic))
        #expect(try BlueZPairingHandler.target(for: Self.leOnly, options: PairingOptions()) == (Self.le, .le))
        let both = PrinterIdentity(serial: "S", bluetooth: Self.cc, bluetoothLE: Self.le)
        #expect(try BlueZPairingHandler.target(for: both, options: PairingOptions()) == (Self.cc, .classic))
        #expect(try BlueZPairingHandler.target(for: both, options: PairingOptions(forceLE: true)) == (Self.le, .le))
        #expect(try BlueZPairingHandler.target(for: Self.classic, options: PairingOptions(forceLE: true)) == (Self.cc, .le))
    }

    @Test func noBusIsATypedPairingError() {
        #expect(throws: PairingError.busUnavailable("connecting to unix:path=/nonexistent/nfctap-no-bus: No such file or directory")) {
            try BlueZPairingHandler(busAddress: "unix:path=/nonexistent/nfctap-no-bus")
                .pair(Self.classic, options: PairingOptions())
        }
    }

    @Test func noUsableMACIsATypedError() {
        let none = PrinterIdentity(serial: "S1", bluetooth: Self.zero, bluetoothLE: Self.zero, wifi: Self.cc)
        #expect(throws: PairingError.noBluetoothAddress(serial: "S1")) {
            try BlueZPairingHandler.target(for: none, options: PairingOptions())
        }
        #expect(throws: PairingError.noBluetoothAddress(serial: "S1")) {
            try BlueZPairingHandler().pair(none, options: PairingOptions())
        }
    }

    @Test func devicePathsAndUUIDs() {
        #expect(BlueZ.devicePath(adapterPath: "/org/bluez/hci0", address: Self.cc) == "/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0")
        #expect(BlueZ.adapterName("/org/bluez/hci1") == "hci1")
        #expect(BlueZ.isUUID("0000180a-0000-1000-8000-00805f9b34fb", ZebraBLE.deviceInformationService))
        #expect(BlueZ.isUUID("38eb4a82-c570-11e3-9507-0002a5d5c51b", ZebraBLE.toPrinterData))
        #expect(!BlueZ.isUUID("38eb4a81-c570-11e3-9507-0002a5d5c51b", ZebraBLE.toPrinterData))
        #expect(!BlueZ.isUUID("not-a-uuid", ZebraBLE.toPrinterData))
    }

    @Test func deviceMatchingIsByAddressAndAdapter() {
        let props: [String: DBusValue] = ["Address": .string("cc:78:ab:3e:ba:e0"), "Adapter": .objectPath("/org/bluez/hci0")]
        #expect(BlueZSession.matches(props, address: Self.cc, adapterPath: "/org/bluez/hci0"))
        #expect(!BlueZSession.matches(props, address: Self.cc, adapterPath: "/org/bluez/hci1"))
        #expect(!BlueZSession.matches(props, address: Self.le, adapterPath: "/org/bluez/hci0"))
        #expect(!BlueZSession.matches([:], address: Self.cc, adapterPath: "/org/bluez/hci0"))
    }

    @Test(arguments: [
        ("org.bluez.Error.AuthenticationFailed", BlueZFailure.Kind.authenticationFailed),
        ("org.bluez.Error.AuthenticationCanceled", .authenticationCanceled),
        ("org.bluez.Error.AuthenticationRejected", .authenticationRejected),
        ("org.bluez.Error.AuthenticationTimeout", .authenticationTimeout),
        ("org.bluez.Error.ConnectionAttemptFailed", .connectionAttemptFailed),
        ("org.bluez.Error.AlreadyExists", .alreadyExists),
        ("org.bluez.Error.NotReady", .notReady),
        ("org.bluez.Error.Failed", .failed),
        ("org.bluez.Error.InProgress", .inProgress),
        ("org.bluez.Error.DoesNotExist", .doesNotExist),
        ("org.freedesktop.DBus.Error.NoReply", .noReply),
        ("org.freedesktop.DBus.Error.AccessDenied", .notPermitted),
        ("com.example.Weird", .other),
    ])
    func errorNamesMapToKinds(name: String, kind: BlueZFailure.Kind) {
        let f = BlueZFailure(operation: "Pair", address: "CC:78:AB:3E:BA:E0", name: name, message: "m")
        #expect(f.kind == kind)
        #expect(f.description.hasPrefix("Pair CC:78:AB:3E:BA:E0: \(f.summary) (\(name): m); "))
        #expect(!f.advice.isEmpty)
    }

    @Test func localTimeoutIsNoReply() {
        let f = BlueZFailure(operation: "Pair", address: "A", error: DBusError(code: -ETIMEDOUT, during: "x"))
        #expect(f.kind == .noReply)
    }

    @Test func errorMessagesSayWhatToDo() {
        #expect(PairingError.noAdapter.description.hasPrefix("no Bluetooth adapter"))
        #expect(PairingError.printerNotFound(Self.cc, seconds: 15).description
                .hasPrefix("printer CC:78:AB:3E:BA:E0 not found: is it on and in range? (scanned for 15 s"))
        #expect(PairingError.adapterPowerFailed(adapter: "hci0", reason: "r").description
                .hasPrefix("adapter hci0 is off and could not be powered (r)"))
        #expect(PairingError.noBluetoothSupport.description.hasPrefix("this machine has no Bluetooth support"))
        #expect(PairingError.printerNotFound(Self.cc, seconds: 0.25).description.contains("scanned for 0.3 s"))
    }

    @Test func describeForDryRun() {
        #expect(BlueZPairingHandler().describe(Self.classic, options: PairingOptions(adapter: "hci1"))
                == "would pair printer XXZFJ170700336 over Bluetooth Classic at CC:78:AB:3E:BA:E0 using hci1 (discovering it for up to 15 s if BlueZ does not know it), then trust it and connect")
        #expect(BlueZPairingHandler().describe(Self.leOnly, options: PairingOptions())
                == "would pair printer 50J163001771 over Bluetooth LE at 5C:F8:21:8D:C9:9B using the first Bluetooth adapter (discovering it for up to 15 s if BlueZ does not know it), then trust it, connect and read its GATT Device Information")
    }
}

@Suite struct BlueZAgentTests {
    static let device = "/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0"

    func call(_ member: String, _ args: [DBusValue]) -> DBusMethodCall {
        DBusMethodCall(path: BlueZAgent.path, interface: "org.bluez.Agent1", member: member, sender: ":1.1", arguments: args)
    }

    @Test func acceptsJustWorksAndNumericComparisonForItsDeviceOnly() {
        let agent = BlueZAgent(devicePath: Self.device, pin: nil)
        #expect(agent.capability == .displayYesNo)
        guard case .success([]) = agent.handle(call("RequestConfirmation", [.objectPath(Self.device), .uint32(123456)])) else {
            Issue.record("confirmation refused"); return
        }
        guard case .success([]) = agent.handle(call("RequestAuthorization", [.objectPath(Self.device)])) else {
            Issue.record("authorization refused"); return
        }
        guard case .error("org.bluez.Error.Rejected", _) = agent.handle(call("RequestConfirmation", [.objectPath("/org/bluez/hci0/dev_11_22_33_44_55_66"), .uint32(1)])) else {
            Issue.record("another device was accepted"); return
        }
        #expect(agent.events == ["RequestConfirmation 123456", "RequestAuthorization", "RequestConfirmation 1"])
    }

    @Test func pinRequestsNeedAConfiguredPIN() {
        let without = BlueZAgent(devicePath: Self.device, pin: nil)
        guard case .error("org.bluez.Error.Rejected", _) = without.handle(call("RequestPinCode", [.objectPath(Self.device)])) else {
            Issue.record("PIN given without one configured"); return
        }
        let with = BlueZAgent(devicePath: Self.device, pin: "0000")
        #expect(with.capability == .keyboardDisplay)
        guard case .success([.string("0000")]) = with.handle(call("RequestPinCode", [.objectPath(Self.device)])),
              case .success([.uint32(0)]) = with.handle(call("RequestPasskey", [.objectPath(Self.device)])) else {
            Issue.record("configured PIN not given"); return
        }
    }

    @Test func otherInterfacesAreNotHandled() {
        let agent = BlueZAgent(devicePath: Self.device, pin: nil)
        guard case .notHandled = agent.handle(DBusMethodCall(path: BlueZAgent.path, interface: "com.example.X", member: "Y", sender: nil, arguments: [])) else {
            Issue.record("handled a foreign call"); return
        }
    }
}

@Suite struct PrinterLinkHelperTests {
    @Test func rfcommWithoutKernelSupportIsATypedError() throws {
        // Only meaningful where AF_BLUETOOTH is missing (the project's machines).
        let probe = socket(31, Int32(SOCK_STREAM.rawValue), 3)
        if probe >= 0 { close(probe); return }
        try #require(errno == EAFNOSUPPORT)
        #expect(throws: PairingError.noBluetoothSupport) { try RFCOMMPrinterLink(address: BlueZHelperTests.cc) }
        #expect(throws: PairingError.noBluetoothSupport) {
            try BlueZPairingHandler().openLink(to: BlueZHelperTests.classic, options: PairingOptions())
        }
    }
}
