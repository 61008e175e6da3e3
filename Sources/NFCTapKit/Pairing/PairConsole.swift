import Dispatch
import Foundation

/// `pair`'s messages on stderr. While waiting for a tap on a terminal it also keeps a spinner
/// with the seconds left on the last line, cleared before any other message; when stderr is
/// not a terminal (a pipe, a log) only plain lines are written.
// @unchecked: the spinner's timer, flag and frame are used on `queue` only.
package final class PairConsole: @unchecked Sendable {
    private let queue = DispatchQueue(label: "nfctap.pair.console")
    private let isTerminal: Bool
    private var timer: DispatchSourceTimer?
    private var spinnerShown = false
    private var frame = 0
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    package init(isTerminal: Bool = Stderr.isTerminal) {
        self.isTerminal = isTerminal
    }

    /// Writes one line (the spinner, if shown, is cleared first and redrawn on its next tick).
    package func line(_ text: String) {
        queue.sync {
            clearSpinner()
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Starts the spinner (terminals only). `deadline` nil = no countdown.
    package func startSpinner(deadline: ContinuousClock.Instant?) {
        guard isTerminal else { return }
        queue.sync {
            guard timer == nil else { return }
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.schedule(deadline: .now(), repeating: .milliseconds(100))
            t.setEventHandler { [weak self] in self?.tick(deadline: deadline) }
            timer = t
            t.resume()
        }
    }

    /// Stops the spinner and clears its line.
    package func stopSpinner() {
        queue.sync {
            timer?.cancel()
            timer = nil
            clearSpinner()
        }
    }

    private func tick(deadline: ContinuousClock.Instant?) {
        frame = (frame + 1) % Self.frames.count
        var text = "\r\u{1B}[K\(Self.frames[frame]) waiting for a tap"
        if let deadline {
            let left = max(0, (deadline - ContinuousClock.now).components.seconds)
            text += " (\(left) s left)"
        }
        FileHandle.standardError.write(Data(text.utf8))
        spinnerShown = true
    }

    private func clearSpinner() {
        guard spinnerShown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        spinnerShown = false
    }
}
