import ZebraPrinter

/// What a pairing handler did.
public enum PairingResult: Equatable, Sendable {
    /// BlueZ paired (and trusted) the printer now.
    case paired(BluetoothPairing)
    /// The printer was already paired; trust and connection were still ensured.
    case alreadyPaired(BluetoothPairing)
    /// The identity was printed (the exact line, without its newline).
    case printed(String)
    /// The user's program ran to completion; its exit status is the outcome.
    case handedOff(CommandOutcome)
}

/// Which Bluetooth transport a pairing used.
public enum BluetoothTransport: String, Equatable, Sendable {
    case classic
    case le
}

/// Details of a BlueZ pairing.
public struct BluetoothPairing: Equatable, Sendable {
    public var address: MACAddress
    public var transport: BluetoothTransport
    /// Adapter name, e.g. `hci0`.
    public var adapter: String
    /// BlueZ object path of the device.
    public var devicePath: String
    /// The device had to be found by discovery (BlueZ did not know it).
    public var discovered: Bool
    public var trusted: Bool
    public var connected: Bool
    /// LE only: the Device Information service, when the printer has one.
    public var deviceInformation: DeviceInformation?

    public init(address: MACAddress, transport: BluetoothTransport, adapter: String, devicePath: String,
                discovered: Bool, trusted: Bool, connected: Bool, deviceInformation: DeviceInformation? = nil) {
        self.address = address
        self.transport = transport
        self.adapter = adapter
        self.devicePath = devicePath
        self.discovered = discovered
        self.trusted = trusted
        self.connected = connected
        self.deviceInformation = deviceInformation
    }
}

/// GATT Device Information service (0x180A) strings (docs/zebra.md §2).
public struct DeviceInformation: Equatable, Sendable {
    /// 2A24
    public var model: String?
    /// 2A25
    public var serial: String?
    /// 2A26
    public var firmware: String?
    /// 2A27
    public var hardware: String?
    /// 2A28
    public var software: String?
    /// 2A29
    public var manufacturer: String?

    public init(model: String? = nil, serial: String? = nil, firmware: String? = nil, hardware: String? = nil,
                software: String? = nil, manufacturer: String? = nil) {
        self.model = model
        self.serial = serial
        self.firmware = firmware
        self.hardware = hardware
        self.software = software
        self.manufacturer = manufacturer
    }
}

/// How the user's `--exec` program ended.
public struct CommandOutcome: Equatable, Sendable {
    /// The argv the program was started with.
    public var arguments: [String]
    /// Its exit status (0–255).
    public var exitStatus: Int32

    public init(arguments: [String], exitStatus: Int32) {
        self.arguments = arguments
        self.exitStatus = exitStatus
    }

    public var succeeded: Bool { exitStatus == 0 }
}
