import SafeText
import Dispatch
import Foundation
import Synchronization

/// The desk side of a command on stderr: the "Hold a tag near …" line, a spinner with the seconds
/// left (terminals only), and messages that first clear the spinner line. Every stderr write of
/// the command goes through here while it waits, so lines never interleave with the spinner.
/// Call `clear()` before writing to stdout when both may be the same terminal.
package final class Prompt: Sendable {
    package let style: PromptStyle
    private let deadline: Date?

    private struct State {
        var timer: (any DispatchSourceTimer)?
        var spinnerShown = false
        var frame = 0
        var status = ""

        /// Removes the spinner line if it is shown.
        mutating func eraseSpinner() {
            guard spinnerShown else { return }
            Prompt.write("\r\u{1B}[K")
            spinnerShown = false
        }
    }

    /// Every stderr write happens under it, so lines and the spinner never interleave.
    private let state = Mutex(State())

    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// - Parameter timeout: seconds until the session's time limit, shown as a countdown; nil = none.
    package init(style: PromptStyle = PromptStyle(), timeout: Double?) {
        self.style = style
        deadline = timeout.map { Date().addingTimeInterval($0) }
    }

    deinit { state.withLock { $0.timer?.cancel() } }

    /// Prints `text` as a line, then (on a terminal) starts the spinner with `status` beside it.
    package func start(_ text: String, status: String = "waiting") {
        message(text)
        guard style.live else { return }
        state.withLock { s in
            s.status = status
            guard s.timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "nfctap.prompt"))
            source.schedule(deadline: .now(), repeating: .milliseconds(100))
            source.setEventHandler { [weak self] in self?.tick() }
            s.timer = source
            source.resume()
        }
    }

    /// A line on stderr (the spinner line is cleared first and comes back at the next tick); text
    /// from tags and readers in it is escaped (`SafeText`).
    package func message(_ text: String, _ colour: PromptStyle.Colour? = nil) {
        let safe = SafeText.escaped(text, keepingLayout: true)
        let painted = colour.map { style.paint(safe, $0) } ?? safe
        state.withLock { s in
            s.eraseSpinner()
            Self.write(painted + "\n")
        }
    }

    /// Removes the spinner line now (before stdout output); it comes back at the next tick.
    package func clear() {
        state.withLock { $0.eraseSpinner() }
    }

    /// Stops the spinner for good and removes its line.
    package func stop() {
        state.withLock { s in
            s.timer?.cancel()
            s.timer = nil
            s.eraseSpinner()
        }
    }

    private func tick() {
        let deadline = self.deadline
        let style = self.style
        state.withLock { s in
            guard s.timer != nil else { return }
            s.frame = (s.frame + 1) % Self.frames.count
            var line = "\(Self.frames[s.frame]) \(s.status)"
            if let deadline {
                let left = max(0, Int(deadline.timeIntervalSinceNow.rounded(.up)))
                line += " · \(left) s left"
            }
            Self.write("\r" + style.paint(line, .dim) + "\u{1B}[K")
            s.spinnerShown = true
        }
    }

    private static func write(_ text: String) {
        Stderr.write(text)
    }
}
