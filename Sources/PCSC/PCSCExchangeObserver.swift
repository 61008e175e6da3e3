import Synchronization

/// Sees every card connection and `SCardTransmit` of the process (nfctap's `--trace`).
/// Install it once, before the first connection; nil (the default) costs nothing.
public protocol PCSCExchangeObserver: AnyObject, Sendable {
    /// A card connection opened on `reader`; `atr` as SCardStatus reports it (empty if it failed).
    func connected(reader: String, atr: [UInt8])
    /// One SCardTransmit: the reply (nil when it failed, with `error`), and how long it took.
    func transmitted(reader: String, command: [UInt8], reply: [UInt8]?, error: (any Error)?, duration: Duration)
}

public enum PCSCExchanges {
    /// The process-wide observer; set before any session starts.
    public static var observer: (any PCSCExchangeObserver)? {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    private static let installed = Mutex<(any PCSCExchangeObserver)?>(nil)
}
