import Foundation
import Synchronization

/// Reports the forwarder's state every `interval` while records wait or the state changed
/// (inventory's stderr status line, the kiosk log).
public final class ForwarderMonitor: Sendable {
    /// The timer source (not Sendable): only used under its lock.
    private let timer: Mutex<any DispatchSourceTimer>
    /// The state last reported (the timer's handler, one at a time on its serial queue).
    private let last = Mutex<(ForwarderStatus.Connection, UInt64)?>(nil)

    public init(forwarder: Forwarder, interval: Duration, emit: @escaping @Sendable (ForwarderStatus) -> Void) {
        timer = Mutex(DispatchSource.makeTimerSource(queue: DispatchQueue(label: "nfctap.fleet.monitor")))
        let seconds = Forwarder.seconds(interval)
        let handler: @Sendable () -> Void = { [unowned self] in
            let status = forwarder.status
            let key = (status.connection, status.backlogRecords)
            let changed = last.withLock { last in
                defer { last = key }
                return last.map { $0.0 != key.0 || $0.1 != key.1 } ?? true
            }
            if status.backlogRecords > 0 || changed { emit(status) }
        }
        timer.withLock { timer in
            timer.schedule(deadline: .now() + seconds, repeating: seconds)
            timer.setEventHandler(handler: handler)
            timer.resume()
        }
    }

    public func cancel() { timer.withLock { $0.cancel() } }

    deinit { timer.withLock { $0.cancel() } }
}
