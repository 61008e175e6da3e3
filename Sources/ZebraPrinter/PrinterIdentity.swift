import NDEF

/// A 48-bit MAC address, printed the way Zebra's SDK does: `CC:78:AB:3E:BA:E0`.
public struct MACAddress: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Takes exactly 6 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// All zeros: Zebra's marker for "this interface is not present" (docs/zebra.md §1).
    public var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

    /// `FF:FF:FF:FF:FF:FF`: every station at once, never one device's address.
    public var isBroadcast: Bool { bytes.allSatisfy { $0 == 0xFF } }

    /// The first octet's least significant bit set (IEEE 802 group address): a group of
    /// stations, never one device's address. Broadcast is a multicast address too.
    public var isMulticast: Bool { bytes[0] & 0x01 != 0 }

    public var description: String {
        bytes.hexString(separator: ":")
    }
}

/// What a Zebra printer's NFC tag says about the printer (docs/zebra.md §1).
public struct PrinterIdentity: Hashable, Sendable {
    /// `s`: serial number, also the default Bluetooth friendly name.
    public var serial: String
    /// `c`: configurator / SKU, e.g. `ZQ320-A0E02T0-00`.
    public var model: String?
    /// `mB`: Bluetooth Classic MAC.
    public var bluetooth: MACAddress?
    /// `mBL`: Bluetooth LE MAC.
    public var bluetoothLE: MACAddress?
    /// `mW`: Wi-Fi MAC.
    public var wifi: MACAddress?
    /// `mE`: Ethernet MAC.
    public var ethernet: MACAddress?
    /// `v`: URL record version.
    public var version: String?
    /// Query keys this project does not know, in tag order.
    public var otherFields: [QueryField]

    public init(serial: String, model: String? = nil, bluetooth: MACAddress? = nil,
                bluetoothLE: MACAddress? = nil, wifi: MACAddress? = nil, ethernet: MACAddress? = nil,
                version: String? = nil, otherFields: [QueryField] = []) {
        self.serial = serial
        self.model = model
        self.bluetooth = bluetooth
        self.bluetoothLE = bluetoothLE
        self.wifi = wifi
        self.ethernet = ethernet
        self.version = version
        self.otherFields = otherFields
    }
}

/// One `key=value` pair of the tag's query, percent-decoded.
public struct QueryField: Hashable, Sendable {
    public var key: String
    public var value: String
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
