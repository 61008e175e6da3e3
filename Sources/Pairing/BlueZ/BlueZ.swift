import ZebraPrinter

/// BlueZ's D-Bus names (BlueZ doc/org.bluez.*.rst). The Zebra GATT UUIDs are `ZebraBLE`'s.
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

    /// True when BlueZ's UUID text (lower case, 128-bit) names `uuid`; text that is not a UUID
    /// matches nothing.
    static func isUUID(_ text: String, _ uuid: BluetoothUUID) -> Bool {
        BluetoothUUID(string: text) == uuid
    }
}
