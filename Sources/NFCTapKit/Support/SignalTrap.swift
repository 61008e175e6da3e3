import Dispatch
import Foundation

/// Turns SIGINT/SIGTERM (and SIGHUP where asked) into calls on a queue instead of the default
/// "die now", so sessions end with Core NFC's 200 and files are flushed.
package final class SignalTrap {
    private var sources: [DispatchSourceSignal] = []

    /// - Parameter handler: called on `queue` with the signal number, every time one arrives.
    package init(_ signals: [Int32] = [SIGINT, SIGTERM], queue: DispatchQueue = .main, handler: @escaping (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
