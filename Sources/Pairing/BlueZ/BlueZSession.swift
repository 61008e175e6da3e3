import SDBus
import ZebraPrinter

/// One conversation with bluetoothd over D-Bus: the steps `BlueZPairingHandler` strings together.
/// Every D-Bus error leaves here as a `PairingError`.
final class BlueZSession {
    let connection: DBusConnection

    /// Connects to `busAddress`, or to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` honoured).
    init(busAddress: String?) throws {
        do {
            connection = try busAddress.map { try DBusConnection(address: $0) } ?? DBusConnection.system()
        } catch let e as DBusError {
            throw PairingError.busUnavailable(e.message)
        }
    }

    /// Runs a BlueZ call, turning D-Bus errors into `PairingError`.
    func bluez<T>(_ operation: String, _ address: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as DBusError {
            if e.name == "org.freedesktop.DBus.Error.ServiceUnknown" || e.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                throw PairingError.bluetoothServiceUnavailable
            }
            if e.errno != nil && !e.isTimeout {
                throw PairingError.busUnavailable(e.message)
            }
            throw PairingError.bluez(BlueZFailure(operation: operation, address: address, error: e))
        }
    }

    func call(_ path: String, _ interface: String, _ member: String, _ args: [DBusValue] = [],
              address: String, timeout: Duration = .seconds(25)) throws -> [DBusValue] {
        try bluez(member, address) {
            try connection.call(destination: BlueZ.service, path: path, interface: interface, member: member,
                                arguments: args, timeout: timeout)
        }
    }

    func objects() throws -> ManagedObjects {
        try bluez("GetManagedObjects", "") { try connection.managedObjects(destination: BlueZ.service) }
    }

    // MARK: Adapter

    /// The adapter's object path: the named one, else the first BlueZ lists.
    /// - Throws: `.adapterNotFound`, `.noAdapter`.
    func adapterPath(named name: String?, in objects: ManagedObjects) throws -> String {
        let adapters = objects.paths(implementing: BlueZ.adapterInterface)
        if let name {
            guard let path = adapters.first(where: { BlueZ.adapterName($0) == name }) else {
                throw PairingError.adapterNotFound(name)
            }
            return path
        }
        guard let first = adapters.first else { throw PairingError.noAdapter }
        return first
    }

    /// Sets `Powered` when the adapter is off.
    /// - Throws: `.adapterPowerFailed` when BlueZ refuses (rfkill, hardware switch…).
    func ensurePowered(_ adapterPath: String, in objects: ManagedObjects) throws {
        let name = BlueZ.adapterName(adapterPath)
        if objects.properties(adapterPath, BlueZ.adapterInterface)?["Powered"]?.bool == true { return }
        do {
            try connection.setProperty(destination: BlueZ.service, path: adapterPath, interface: BlueZ.adapterInterface,
                                       name: "Powered", value: .bool(true))
            let now = try connection.property(destination: BlueZ.service, path: adapterPath,
                                              interface: BlueZ.adapterInterface, name: "Powered")
            guard now.bool == true else {
                throw PairingError.adapterPowerFailed(adapter: name, reason: "Powered is still false")
            }
        } catch let e as DBusError {
            throw PairingError.adapterPowerFailed(adapter: name, reason: e.description)
        }
    }

    // MARK: Device

    /// The device's path when BlueZ knows it: the conventional path, else any Device1 on this
    /// adapter whose Address matches.
    func knownDevice(_ address: MACAddress, adapterPath: String, in objects: ManagedObjects) -> String? {
        let conventional = BlueZ.devicePath(adapterPath: adapterPath, address: address)
        if objects.properties(conventional, BlueZ.deviceInterface) != nil { return conventional }
        return objects.paths(implementing: BlueZ.deviceInterface).first { path in
            guard let props = objects.properties(path, BlueZ.deviceInterface) else { return false }
            return Self.matches(props, address: address, adapterPath: adapterPath)
        }
    }

    static func matches(_ props: [String: DBusValue], address: MACAddress, adapterPath: String) -> Bool {
        guard props["Address"]?.string?.uppercased() == address.description else { return false }
        if let adapter = props["Adapter"]?.string, adapter != adapterPath { return false }
        return true
    }

    /// Scans until the printer appears. Wraps `SetDiscoveryFilter` (Transport), `StartDiscovery`,
    /// the `InterfacesAdded` signal and `StopDiscovery` (always called once started).
    /// - Throws: `.printerNotFound` after `timeout`; `.bluez` when discovery cannot start.
    func discover(_ address: MACAddress, adapterPath: String, transport: BluetoothTransport,
                  timeout: Duration) throws -> String {
        let text = address.description
        var found: String? = nil
        let match = try bluez("AddMatch", text) {
            try connection.addMatch("type='signal',sender='\(BlueZ.service)',interface='org.freedesktop.DBus.ObjectManager',member='InterfacesAdded'") { signal in
                guard found == nil, signal.arguments.count >= 2, let path = signal.arguments[0].string,
                      let interfaces = ManagedObjects.interfaces(signal.arguments[1]),
                      let props = interfaces[BlueZ.deviceInterface],
                      Self.matches(props, address: address, adapterPath: adapterPath) else { return }
                found = path
            }
        }
        defer { match.cancel() }

        // A filter narrows the scan to the printer's transport; an old BlueZ without filters still scans.
        _ = try? connection.call(destination: BlueZ.service, path: adapterPath, interface: BlueZ.adapterInterface,
                                 member: "SetDiscoveryFilter",
                                 arguments: [.properties(["Transport": .string(transport == .le ? "le" : "bredr")])])
        do {
            _ = try call(adapterPath, BlueZ.adapterInterface, "StartDiscovery", address: text)
        } catch PairingError.bluez(let f) where f.kind == .inProgress {
            // Someone else is scanning already: their scan finds the printer too.
        }
        defer {
            _ = try? connection.call(destination: BlueZ.service, path: adapterPath, interface: BlueZ.adapterInterface,
                                     member: "StopDiscovery")
        }
        // It may have appeared between the first look and the match.
        if let path = knownDevice(address, adapterPath: adapterPath, in: try objects()) { return path }
        _ = try bluez("StartDiscovery", text) { try connection.process(until: { found != nil }, timeout: timeout) }
        guard let path = found else { throw PairingError.printerNotFound(address, seconds: timeout.seconds) }
        return path
    }

    func deviceProperties(_ path: String, address: String) throws -> [String: DBusValue] {
        try bluez("GetAll", address) {
            try connection.allProperties(destination: BlueZ.service, path: path, interface: BlueZ.deviceInterface)
        }
    }

    /// Pairs with an agent registered for the duration. Returns false when BlueZ says it is
    /// already paired (`AlreadyExists`).
    /// - Throws: `.bluez` with the mapped failure.
    func pair(_ path: String, address: String, pin: String?, timeout: Duration) throws -> (Bool, [String]) {
        let agent = BlueZAgent(devicePath: path, pin: pin)
        let export = try bluez("RegisterAgent", address) {
            try connection.exportObject(path: BlueZAgent.path) { agent.handle($0) }
        }
        defer { export.cancel() }
        do {
            _ = try call(BlueZ.agentManagerPath, BlueZ.agentManagerInterface, "RegisterAgent",
                         [.objectPath(BlueZAgent.path), .string(agent.capability.rawValue)], address: address)
        } catch PairingError.bluez(let f) where f.kind == .alreadyExists {
        }
        defer {
            _ = try? connection.call(destination: BlueZ.service, path: BlueZ.agentManagerPath,
                                     interface: BlueZ.agentManagerInterface, member: "UnregisterAgent",
                                     arguments: [.objectPath(BlueZAgent.path)])
        }
        // Not essential: BlueZ also asks the agent of the connection that called Pair.
        _ = try? connection.call(destination: BlueZ.service, path: BlueZ.agentManagerPath,
                                 interface: BlueZ.agentManagerInterface, member: "RequestDefaultAgent",
                                 arguments: [.objectPath(BlueZAgent.path)])
        do {
            _ = try call(path, BlueZ.deviceInterface, "Pair", address: address, timeout: timeout)
            return (true, agent.events)
        } catch PairingError.bluez(let f) where f.kind == .alreadyExists {
            return (false, agent.events)
        }
    }

    /// Sets `Trusted` so the printer may reconnect without asking.
    func trust(_ path: String, address: String) throws {
        try bluez("Trust", address) {
            try connection.setProperty(destination: BlueZ.service, path: path, interface: BlueZ.deviceInterface,
                                       name: "Trusted", value: .bool(true))
        }
    }

    /// `Device1.Connect`. Returns whether the device is connected afterwards. `AlreadyConnected`
    /// is success. For Classic, a missing auto-connect profile (`NotAvailable`,
    /// `br-connection-profile-unavailable`) is not an error: the RFCOMM link connects by itself.
    func connect(_ path: String, address: String, transport: BluetoothTransport) throws -> Bool {
        do {
            _ = try call(path, BlueZ.deviceInterface, "Connect", address: address)
            return true
        } catch PairingError.bluez(let f) {
            if f.name == "org.bluez.Error.AlreadyConnected" { return true }
            if transport == .classic && (f.kind == .notAvailable || f.message.contains("profile-unavailable")) {
                return false
            }
            throw PairingError.bluez(f)
        }
    }

    /// Waits for `ServicesResolved` (LE: GATT objects exist after it).
    /// - Throws: `.servicesNotResolved` after `timeout`.
    func waitForServices(_ path: String, address: MACAddress, timeout: Duration) throws {
        var resolved = false
        let text = address.description
        let match = try bluez("AddMatch", text) {
            try connection.addMatch("type='signal',sender='\(BlueZ.service)',path='\(path)',interface='\(DBusConnection.propertiesInterface)',member='PropertiesChanged'") { signal in
                guard signal.arguments.first?.string == BlueZ.deviceInterface,
                      let changed = signal.arguments.dropFirst().first?.stringKeyed else { return }
                if changed["ServicesResolved"]?.bool == true { resolved = true }
            }
        }
        defer { match.cancel() }
        if try deviceProperties(path, address: text)["ServicesResolved"]?.bool == true { return }
        let ok = try bluez("Connect", text) { try connection.process(until: { resolved }, timeout: timeout) }
        if !ok { throw PairingError.servicesNotResolved(address) }
    }

    // MARK: GATT

    /// The characteristic with `uuid` inside a service with `serviceUUID` under the device.
    func characteristic(_ uuid: BluetoothUUID, service serviceUUID: BluetoothUUID, device: String,
                        in objects: ManagedObjects) -> (path: String, properties: [String: DBusValue])? {
        let services = objects.paths(implementing: BlueZ.gattServiceInterface).filter { path in
            guard path.hasPrefix(device + "/"), let p = objects.properties(path, BlueZ.gattServiceInterface),
                  let u = p["UUID"]?.string else { return false }
            return BlueZ.isUUID(u, serviceUUID)
        }
        for path in objects.paths(implementing: BlueZ.gattCharacteristicInterface) {
            guard let p = objects.properties(path, BlueZ.gattCharacteristicInterface),
                  let u = p["UUID"]?.string, BlueZ.isUUID(u, uuid) else { continue }
            let service = p["Service"]?.string ?? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            if services.contains(service) { return (path, p) }
        }
        return nil
    }

    /// Reads the Device Information strings the printer has; nil when it has no 0x180A service.
    /// A characteristic that cannot be read is left nil.
    func deviceInformation(device: String, in objects: ManagedObjects) -> DeviceInformation? {
        func read(_ uuid: BluetoothUUID) -> String? {
            guard let c = characteristic(uuid, service: ZebraBLE.deviceInformationService, device: device, in: objects),
                  let reply = try? connection.call(destination: BlueZ.service, path: c.path,
                                                   interface: BlueZ.gattCharacteristicInterface, member: "ReadValue",
                                                   arguments: [.properties([:])]),
                  let bytes = reply.first?.byteArray else { return nil }
            // Strings are UTF-8, sometimes NUL-padded.
            var trimmed = bytes
            while trimmed.last == 0 { trimmed.removeLast() }
            return String(decoding: trimmed, as: UTF8.self)
        }
        let hasService = objects.paths(implementing: BlueZ.gattServiceInterface).contains { path in
            path.hasPrefix(device + "/") && (objects.properties(path, BlueZ.gattServiceInterface)?["UUID"]?.string)
                .map { BlueZ.isUUID($0, ZebraBLE.deviceInformationService) } == true
        }
        guard hasService else { return nil }
        return DeviceInformation(model: read(ZebraBLE.modelNumber), serial: read(ZebraBLE.serialNumber),
                                 firmware: read(ZebraBLE.firmwareRevision), hardware: read(ZebraBLE.hardwareRevision),
                                 software: read(ZebraBLE.softwareRevision), manufacturer: read(ZebraBLE.manufacturerName))
    }
}
