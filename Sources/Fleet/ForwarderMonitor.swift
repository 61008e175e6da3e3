import Foundation

/// Reports the forwarder's state every `interval` while records wait or the state changed
/// (inventory's stderr status line, the kiosk log).
// @unchecked: `last` is touched only on `queue` (the timer's handler), and the timer source is not Sendable.
public final class ForwarderMonitor: @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let queue = DispatchQueue(label: "nfctap.fleet.monitor")
    private var last: (ForwarderStatus.Connection, UInt64)?

    public init(forwarder: Forwarder, interval: Duration, emit: @escaping @Sendable (ForwarderStatus) -> Void) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        let seconds = Forwarder.seconds(interval)
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler { [unowned self] in
            let status = forwarder.status
            let key = (status.connection, status.backlogRecords)
            if status.backlogRecords > 0 || last.map({ $0.0 != key.0 || $0.1 != key.1 }) ?? true { emit(status) }
            last = key
        }
        timer.resume()
    }

    public func cancel() { timer.cancel() }

    deinit { timer.cancel() }
}
