import ZebraPrinter

/// BlueZ's D-Bus names (BlueZ doc/org.bluez.*.rst) and the Zebra GATT UUIDs (specs/zebra.md §2).
enum BlueZ {
    static let service = "org.bluez"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let agentManagerInterface = "org.bluez.AgentManager1"
    static let agentInterface = "org.bluez.Agent1"
    static let gattServiceInterface = "org.bluez.GattService1"
    static let gattCharacteristicInterface = "org.bluez.GattCharacteristic1"
    static let agentManagerPath = "/org/bluez"

    /// The object path BlueZ gives a device: `/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0`.
    static func devicePath(adapterPath: String, address: MACAddress) -> String {
        adapterPath + "/dev_" + address.description.split(separator: ":").joined(separator: "_")
    }

    /// Adapter name from its path (`/org/bluez/hci0` → `hci0`).
    static func adapterName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Compares UUIDs the way BlueZ spells them (lower case, 128-bit); a 16-bit short form
    /// (`180A`) is expanded onto the Bluetooth base UUID.
    static func sameUUID(_ a: String, _ b: String) -> Bool {
        expand(a) == expand(b)
    }

    static func expand(_ uuid: String) -> String {
        let u = uuid.lowercased()
        if u.count == 4 { return "0000" + u + "-0000-1000-8000-00805f9b34fb" }
        return u
    }
}

/// The Zebra Bluetooth LE UUIDs (specs/zebra.md §2). Kept here until ZebraPrinter's helpers are
/// wired in by the lead.
enum ZebraGATT {
    static let parserService = "38EB4A80-C570-11E3-9507-0002A5D5C51B"
    /// "To Printer Data": ZPL/SGD is written here.
    static let toPrinter = "38EB4A82-C570-11E3-9507-0002A5D5C51B"
    /// "From Printer Data": replies arrive here as notifications/indications.
    static let fromPrinter = "38EB4A81-C570-11E3-9507-0002A5D5C51B"
    static let deviceInformationService = "180A"
    static let modelNumber = "2A24"
    static let serialNumber = "2A25"
    static let firmwareRevision = "2A26"
    static let hardwareRevision = "2A27"
    static let softwareRevision = "2A28"
    static let manufacturerName = "2A29"
    /// ATT default MTU; a write carries MTU − 3 bytes.
    static let defaultMTU = 23
}
