import SDBus
import ZebraPrinter

/// Pairs a printer through BlueZ on the system D-Bus (docs/tags-and-readers.md §5):
/// adapter → (power) → device by MAC, or discovery → agent + `Pair` (idempotent) → `Trusted` →
/// `Connect`; for Bluetooth LE also `ServicesResolved` and the Device Information service.
public final class BlueZPairingHandler: PairingHandler {
    let busAddress: String?

    /// - Parameter busAddress: a D-Bus address to use instead of the system bus (tests);
    ///   nil = the system bus (`DBusConnection.system()`), which honours `DBUS_SYSTEM_BUS_ADDRESS`.
    public init(busAddress: String? = nil) {
        self.busAddress = busAddress
    }

    /// Which MAC and transport a tag leads to: Classic (`mB`) unless the tag has only an LE MAC
    /// (`mBL`) or `forceLE` is set. All-zero MACs count as absent (docs/zebra.md §1).
    /// - Throws: `PairingError.noBluetoothAddress`.
    public static func target(for identity: PrinterIdentity, options: PairingOptions) throws -> (MACAddress, BluetoothTransport) {
        let classic = identity.bluetooth.flatMap { $0.isZero ? nil : $0 }
        let le = identity.bluetoothLE.flatMap { $0.isZero ? nil : $0 }
        if options.forceLE, let mac = le ?? classic { return (mac, .le) }
        if let mac = classic { return (mac, .classic) }
        if let mac = le { return (mac, .le) }
        throw PairingError.noBluetoothAddress(serial: identity.serial)
    }

    public func describe(_ identity: PrinterIdentity, options: PairingOptions) -> String {
        guard let (mac, transport) = try? Self.target(for: identity, options: options) else {
            return PairingError.noBluetoothAddress(serial: identity.serial).description
        }
        let adapter = options.adapter ?? "the first Bluetooth adapter"
        let kind = transport == .le ? "Bluetooth LE" : "Bluetooth Classic"
        var steps = "would pair printer \(identity.serial) over \(kind) at \(mac) using \(adapter)"
        steps += " (discovering it for up to \(PairingError.format(options.discoveryTimeout.seconds)) s if BlueZ does not know it), then trust it"
        if options.connect {
            steps += transport == .le ? ", connect and read its GATT Device Information" : " and connect"
        }
        return steps
    }

    /// - Throws: `PairingError` (never a raw D-Bus error).
    public func pair(_ identity: PrinterIdentity, options: PairingOptions) throws -> PairingResult {
        let (mac, transport) = try Self.target(for: identity, options: options)
        let text = mac.description
        let session = try BlueZSession(busAddress: busAddress)
        let (adapterPath, devicePath, discovered) = try locate(mac, transport: transport, session: session, options: options)

        var props = try session.deviceProperties(devicePath, address: text)
        var newlyPaired = false
        if props["Paired"]?.bool != true {
            (newlyPaired, _) = try session.pair(devicePath, address: text, pin: options.pin, timeout: options.pairTimeout)
        }
        if props["Trusted"]?.bool != true {
            try session.trust(devicePath, address: text)
        }
        var connected = props["Connected"]?.bool == true
        var info: DeviceInformation? = nil
        if options.connect {
            if !connected {
                connected = try session.connect(devicePath, address: text, transport: transport)
            }
            if transport == .le && connected {
                try session.waitForServices(devicePath, address: mac, timeout: options.servicesTimeout)
                info = session.deviceInformation(device: devicePath, in: try session.objects())
            }
        }
        props = try session.deviceProperties(devicePath, address: text)
        let details = BluetoothPairing(address: mac, transport: transport, adapter: BlueZ.adapterName(adapterPath),
                                       devicePath: devicePath, discovered: discovered,
                                       trusted: props["Trusted"]?.bool == true,
                                       connected: connected || props["Connected"]?.bool == true,
                                       deviceInformation: info)
        return newlyPaired ? .paired(details) : .alreadyPaired(details)
    }

    /// Opens a byte link to the printer: GATT for LE (connecting and resolving services as
    /// needed), RFCOMM channel 1 for Classic. Pairing first is up to the caller.
    /// - Throws: `PairingError` (`.noBluetoothSupport` for Classic on a machine without AF_BLUETOOTH,
    ///   `.gattAttributeMissing` when the printer lacks the Zebra parser service).
    public func openLink(to identity: PrinterIdentity, options: PairingOptions) throws -> PrinterLink {
        let (mac, transport) = try Self.target(for: identity, options: options)
        if transport == .classic { return try RFCOMMPrinterLink(address: mac) }
        let text = mac.description
        let session = try BlueZSession(busAddress: busAddress)
        let (_, devicePath, _) = try locate(mac, transport: transport, session: session, options: options)
        if try session.deviceProperties(devicePath, address: text)["Connected"]?.bool != true {
            _ = try session.connect(devicePath, address: text, transport: .le)
        }
        try session.waitForServices(devicePath, address: mac, timeout: options.servicesTimeout)
        let objects = try session.objects()
        guard let write = session.characteristic(ZebraBLE.toPrinterData, service: ZebraBLE.parserService,
                                                 device: devicePath, in: objects) else {
            throw PairingError.gattAttributeMissing(ZebraBLE.toPrinterData.description.uppercased())
        }
        guard let notify = session.characteristic(ZebraBLE.fromPrinterData, service: ZebraBLE.parserService,
                                                  device: devicePath, in: objects) else {
            throw PairingError.gattAttributeMissing(ZebraBLE.fromPrinterData.description.uppercased())
        }
        return try GATTPrinterLink(connection: session.connection, writePath: write.path, notifyPath: notify.path,
                                   mtu: write.properties["MTU"]?.integer)
    }

    /// Adapter (powered) and device path, discovering the device when BlueZ does not know it.
    private func locate(_ mac: MACAddress, transport: BluetoothTransport, session: BlueZSession,
                        options: PairingOptions) throws -> (adapter: String, device: String, discovered: Bool) {
        let objects = try session.objects()
        let adapterPath = try session.adapterPath(named: options.adapter, in: objects)
        try session.ensurePowered(adapterPath, in: objects)
        if let path = session.knownDevice(mac, adapterPath: adapterPath, in: objects) {
            return (adapterPath, path, false)
        }
        let path = try session.discover(mac, adapterPath: adapterPath, transport: transport,
                                        timeout: options.discoveryTimeout)
        return (adapterPath, path, true)
    }
}
