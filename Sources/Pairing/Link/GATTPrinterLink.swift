import SDBus
import ZebraPrinter

/// A Zebra printer over Bluetooth LE (docs/zebra.md §2): writes go to "To Printer Data"
/// (`…4A82`) in MTU − 3 byte chunks (`ZebraBLE.chunks`), each a `WriteValue` with `type=request` (acknowledged);
/// replies arrive as `Value` changes of "From Printer Data" (`…4A81`) after `StartNotify`,
/// split over several indications, and are collected here until the caller says complete.
public final class GATTPrinterLink: PrinterLink {
    private let connection: DBusConnection
    private let writePath: String
    private let notifyPath: String
    private var subscription: DBusSubscription?
    private var received: [UInt8] = []
    private var notifying = false
    /// The ATT MTU the write characteristic reports (`ZebraBLE.minimumMTU` when it does not say);
    /// each `WriteValue` carries at most MTU − 3 bytes.
    public let mtu: Int

    /// Subscribes to the notify characteristic and calls `StartNotify`.
    /// - Throws: `PairingError.bluez` when BlueZ refuses.
    init(connection: DBusConnection, writePath: String, notifyPath: String, mtu: Int?) throws {
        self.connection = connection
        self.writePath = writePath
        self.notifyPath = notifyPath
        self.mtu = mtu ?? ZebraBLE.minimumMTU
        subscription = try Self.map("StartNotify") {
            try connection.addMatch("type='signal',sender='\(BlueZ.service)',path='\(notifyPath)',interface='\(DBusConnection.propertiesInterface)',member='PropertiesChanged'") { [weak self] signal in
                guard let self, signal.arguments.first?.string == BlueZ.gattCharacteristicInterface,
                      let value = signal.arguments.dropFirst().first?.stringKeyed?["Value"]?.byteArray else { return }
                self.received += value
            }
        }
        _ = try Self.map("StartNotify") {
            try connection.call(destination: BlueZ.service, path: notifyPath,
                                interface: BlueZ.gattCharacteristicInterface, member: "StartNotify")
        }
        notifying = true
    }

    /// Wraps `GattCharacteristic1.WriteValue(ay, {"type": "request"})` per chunk.
    public func send(_ bytes: [UInt8]) throws {
        for chunk in ZebraBLE.chunks(bytes, mtu: mtu) {
            _ = try Self.map("WriteValue") {
                try connection.call(destination: BlueZ.service, path: writePath,
                                    interface: BlueZ.gattCharacteristicInterface, member: "WriteValue",
                                    arguments: [.bytes(chunk), .properties(["type": .string("request")])])
            }
        }
    }

    public func receive(until isComplete: ([UInt8]) -> Bool, timeout: Duration) throws -> [UInt8] {
        let done = try Self.map("receive") {
            try connection.process(until: { isComplete(received) }, timeout: timeout)
        }
        guard done else { throw PairingError.replyTimeout(received: received.count) }
        defer { received = [] }
        return received
    }

    /// Wraps `StopNotify` and drops the subscription.
    public func close() {
        if notifying {
            _ = try? connection.call(destination: BlueZ.service, path: notifyPath,
                                     interface: BlueZ.gattCharacteristicInterface, member: "StopNotify")
            notifying = false
        }
        subscription?.cancel()
        subscription = nil
    }

    deinit { close() }

    private static func map<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as DBusError {
            throw PairingError.bluez(BlueZFailure(operation: operation, address: "", error: e))
        }
    }
}
