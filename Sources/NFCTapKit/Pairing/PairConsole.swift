import SafeText
import Dispatch
import Foundation
import Synchronization

/// `pair`'s messages on stderr. While waiting for a tap on a terminal it also keeps a spinner
/// with the seconds left on the last line, cleared before any other message; when stderr is
/// not a terminal (a pipe, a log) only plain lines are written.
package final class PairConsole: Sendable {
    private let isTerminal: Bool

    private struct State {
        var timer: (any DispatchSourceTimer)?
        var spinnerShown = false
        var frame = 0

        mutating func clearSpinner() {
            guard spinnerShown else { return }
            Stderr.write("\r\u{1B}[K")
            spinnerShown = false
        }
    }

    /// Every stderr write happens under it, so lines and the spinner never interleave.
    private let state = Mutex(State())
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    package init(isTerminal: Bool = Stderr.isTerminal) {
        self.isTerminal = isTerminal
    }

    deinit { state.withLock { $0.timer?.cancel() } }

    /// Writes one line (the spinner, if shown, is cleared first and redrawn on its next tick).
    package func line(_ text: String) {
        state.withLock { s in
            s.clearSpinner()
            Stderr.write(SafeText.escaped(text, keepingLayout: true) + "\n")
        }
    }

    /// Starts the spinner (terminals only). `deadline` nil = no countdown.
    package func startSpinner(deadline: ContinuousClock.Instant?) {
        guard isTerminal else { return }
        state.withLock { s in
            guard s.timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "nfctap.pair.console"))
            timer.schedule(deadline: .now(), repeating: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.tick(deadline: deadline) }
            s.timer = timer
            timer.resume()
        }
    }

    /// Stops the spinner and clears its line.
    package func stopSpinner() {
        state.withLock { s in
            s.timer?.cancel()
            s.timer = nil
            s.clearSpinner()
        }
    }

    /// Stops the spinner; the error the command throws (`main` prints `nfctap: error: …`).
    package func failure(_ message: String, status: Int32) -> CLIError {
        stopSpinner()
        return CLIError(message, status: status)
    }

    private func tick(deadline: ContinuousClock.Instant?) {
        state.withLock { s in
            guard s.timer != nil else { return }  // stopped while this tick was queued
            s.frame = (s.frame + 1) % Self.frames.count
            var text = "\r\u{1B}[K\(Self.frames[s.frame]) waiting for a tap"
            if let deadline {
                let left = max(0, (deadline - ContinuousClock.now).components.seconds)
                text += " (\(left) s left)"
            }
            Stderr.write(text)
            s.spinnerShown = true
        }
    }
}
