/// A byte pipe to a printer: Bluetooth LE GATT (`GATTPrinterLink`) or Classic RFCOMM
/// (`RFCOMMPrinterLink`). Parsing replies is the caller's job.
public protocol PrinterLink: AnyObject {
    /// Sends bytes, in as many transport-sized pieces as needed, waiting for each to be accepted.
    /// - Throws: `PairingError`.
    func send(_ bytes: [UInt8]) throws

    /// Collects reply bytes until `isComplete(bytesSoFar)` is true, then returns them.
    /// Bytes that arrived before the call (e.g. during `send`) are included.
    /// - Throws: `PairingError.replyTimeout` when the reply is still incomplete after `timeout`.
    func receive(until isComplete: ([UInt8]) -> Bool, timeout: Duration) throws -> [UInt8]

    /// Releases the link (unsubscribes / closes the socket). Also done on deinit.
    func close()
}
