import Dispatch
import Foundation

/// The desk side of a command on stderr: the "Hold a tag near …" line, a spinner with the seconds
/// left (terminals only), and messages that first clear the spinner line. Every stderr write of
/// the command goes through here while it waits, so lines never interleave with the spinner.
/// Call `clear()` before writing to stdout when both may be the same terminal.
package final class Prompt: @unchecked Sendable {
    package let style: PromptStyle
    private let lock = NSLock()
    private let deadline: Date?
    private var timer: DispatchSourceTimer?
    private var spinnerShown = false
    private var frame = 0
    private var status = ""

    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// - Parameter timeout: seconds until the session's time limit, shown as a countdown; nil = none.
    package init(style: PromptStyle = PromptStyle(), timeout: Double?) {
        self.style = style
        deadline = timeout.map { Date().addingTimeInterval($0) }
    }

    deinit { timer?.cancel() }

    /// Prints `text` as a line, then (on a terminal) starts the spinner with `status` beside it.
    package func start(_ text: String, status: String = "waiting") {
        message(text)
        guard style.live else { return }
        lock.withLock {
            self.status = status
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "nfctap.prompt"))
            source.schedule(deadline: .now(), repeating: .milliseconds(100))
            source.setEventHandler { [weak self] in self?.tick() }
            timer = source
            source.resume()
        }
    }

    /// A line on stderr (the spinner line is cleared first and comes back at the next tick).
    package func message(_ text: String, _ colour: PromptStyle.Colour? = nil) {
        let painted = colour.map { style.paint(text, $0) } ?? text
        lock.withLock {
            eraseSpinner()
            write(painted + "\n")
        }
    }

    /// Removes the spinner line now (before stdout output); it comes back at the next tick.
    package func clear() {
        lock.withLock { eraseSpinner() }
    }

    /// Stops the spinner for good and removes its line.
    package func stop() {
        lock.withLock {
            timer?.cancel()
            timer = nil
            eraseSpinner()
        }
    }

    // MARK: Private (called with the lock held)

    private func tick() {
        lock.withLock {
            guard timer != nil else { return }
            frame = (frame + 1) % Self.frames.count
            var line = "\(Self.frames[frame]) \(status)"
            if let deadline {
                let left = max(0, Int(deadline.timeIntervalSinceNow.rounded(.up)))
                line += " · \(left) s left"
            }
            write("\r" + style.paint(line, .dim) + "\u{1B}[K")
            spinnerShown = true
        }
    }

    private func eraseSpinner() {
        guard spinnerShown else { return }
        write("\r\u{1B}[K")
        spinnerShown = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
