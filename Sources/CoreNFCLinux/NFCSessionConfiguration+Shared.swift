import Foundation
import Synchronization

extension NFCSessionConfiguration {
    private static let current = Mutex(NFCSessionConfiguration())

    /// The configuration Apple's initializers use (`NFCNDEFReaderSession(delegate:queue:invalidateAfterFirstRead:)`,
    /// `NFCTagReaderSession(pollingOption:delegate:queue:)`). Code ported from iOS keeps those initializers;
    /// the Linux program around it sets this once at start-up (a time limit, kiosk hot-plug, a reader
    /// filter) the way `NFCReaderEnvironment.shared` sets the backends. Sessions copy it when created.
    public static var shared: NFCSessionConfiguration {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
