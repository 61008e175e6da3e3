import Dispatch
import Foundation

/// Traps signals from its creation on (so they do not end the process) and lets a task await
/// the next one: `emulate` and `fleet forward` run until SIGINT/SIGTERM.
package final class SignalWaiter {
    private let trap: SignalTrap
    private let signals: AsyncStream<Int32?>
    private let continuation: AsyncStream<Int32?>.Continuation

    /// - Parameter ignored: trapped too, but not a reason to stop (the forwarder's SIGHUP).
    package init(_ awaited: [Int32] = [SIGINT, SIGTERM], ignoring ignored: [Int32] = []) {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32?.self)
        self.signals = signals
        self.continuation = continuation
        trap = SignalTrap(awaited + ignored, queue: DispatchQueue(label: "nfctap.signal.waiter")) { number in
            if awaited.contains(number) { continuation.yield(number) }
        }
    }

    deinit { continuation.finish() }

    /// The next awaited signal; nil once `timeout` passed without one.
    package func next(timeout: Duration? = nil) async -> Int32? {
        let timer = timeout.map { timeout in
            Task { [continuation] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                continuation.yield(nil)
            }
        }
        defer { timer?.cancel() }
        for await signal in signals { return signal }
        return nil
    }
}
