import Synchronization

/// Sees every `nfc_initiator_transceive_bytes` of the process (nfctap's `--trace`).
/// Install it once, before the first device opens; nil (the default) costs nothing.
public protocol LibNFCExchangeObserver: AnyObject, Sendable {
    /// One exchange on the device `connstring`: the reply (nil when it failed, with `error`).
    func transceived(connstring: String, command: [UInt8], reply: [UInt8]?, error: (any Error)?, duration: Duration)
}

public enum LibNFCExchanges {
    /// The process-wide observer; set before any session starts.
    public static var observer: (any LibNFCExchangeObserver)? {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    private static let installed = Mutex<(any LibNFCExchangeObserver)?>(nil)
}
