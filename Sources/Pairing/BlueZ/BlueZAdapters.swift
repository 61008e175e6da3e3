import SDBus

/// A Bluetooth adapter as BlueZ reports it (for `nfctap doctor`).
public struct BluetoothAdapterStatus: Equatable, Sendable {
    /// e.g. `hci0`.
    public var name: String
    /// The adapter's own address, when BlueZ gives it.
    public var address: String?
    public var powered: Bool
}

extension BlueZPairingHandler {
    /// The adapters bluetoothd knows, read-only (GetManagedObjects; nothing is changed).
    /// - Throws: `PairingError.busUnavailable` (no system bus), `.bluetoothServiceUnavailable`
    ///   (bluetoothd not running).
    public func adapters() throws -> [BluetoothAdapterStatus] {
        let session = try BlueZSession(busAddress: busAddress)
        let objects = try session.objects()
        return objects.paths(implementing: BlueZ.adapterInterface).map { path in
            let props = objects.properties(path, BlueZ.adapterInterface) ?? [:]
            return BluetoothAdapterStatus(name: BlueZ.adapterName(path), address: props["Address"]?.string,
                                          powered: props["Powered"]?.bool == true)
        }
    }
}
