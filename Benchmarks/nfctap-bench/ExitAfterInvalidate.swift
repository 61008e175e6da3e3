#if canImport(Glibc)
import Glibc
#endif
import CoreNFCLinux
import Dispatch
import Foundation

/// `nfctap-bench exit-after-invalidate [--read]`: what an iOS-style program does at its end, as
/// fast as it can: begin a session on the real readers (`NFCReaderEnvironment.shared`), wait until
/// it is active (with `--read`: until the first message was read), `invalidate()`, `exit(0)` at
/// once. `SystemTests.ShutdownTests` runs it hundreds of times: a library thread still inside
/// pcsc-lite while the library tears itself down would crash it (docs/architecture.md, "Threads
/// and queues"). Exit 0 when it ended cleanly, 3 when the session never became active.
func exitAfterInvalidate(afterRead: Bool) -> Never {
    final class Delegate: NFCNDEFReaderSessionDelegate, Sendable {
        let ready = DispatchSemaphore(value: 0)
        let afterRead: Bool
        init(afterRead: Bool) { self.afterRead = afterRead }
        func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { if !afterRead { ready.signal() } }
        func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
            if afterRead { ready.signal() }
        }
        func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {}
    }
    let delegate = Delegate(afterRead: afterRead)
    let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
    session.begin()
    guard delegate.ready.wait(timeout: .now() + 20) == .success else { exit(3) }
    session.invalidate()
    exit(0)
}
