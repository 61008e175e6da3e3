import Foundation
import Synchronization

/// What a signal interrupts in `pair`: the wait for a tap (the session is invalidated and the
/// wait returns `.interrupted`, exit 130), or pairing and the conversation, which block in BlueZ
/// or socket calls (exit 130 at once; bluetoothd drops the agent with the connection).
package final class PairPhase: Sendable {
    private let waiting = Mutex(true)
    private let waiter: PrinterTapWaiter
    private let console: PairConsole

    package init(waiter: PrinterTapWaiter, console: PairConsole) {
        self.waiter = waiter
        self.console = console
    }

    /// The tap is over: later signals end the process.
    package func tapDone() {
        waiting.withLock { $0 = false }
    }

    package func interrupt(_ signal: Int32) {
        if waiting.withLock({ $0 }) {
            waiter.interrupt(signal)
        } else {
            console.line("nfctap: error: interrupted")
            Foundation.exit(ExitStatus.interrupted)
        }
    }
}
