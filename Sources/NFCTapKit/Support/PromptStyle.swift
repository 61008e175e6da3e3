import Foundation

/// How desk messages look on stderr: colours and live lines (spinner, countdown) only when stderr
/// is a terminal, colours never when `NO_COLOR` is set (https://no-color.org) or `TERM` is `dumb`.
package struct PromptStyle: Sendable {
    /// ANSI colours in messages.
    package var colours: Bool
    /// A spinner line redrawn in place (needs a terminal that understands `\r` and `ESC [K`).
    package var live: Bool

    /// `TERM` and `NO_COLOR`, from `getenv`.
    package static func styleEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for key in ["TERM", "NO_COLOR"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return environment
    }

    /// Decides from the environment and whether stderr is a terminal.
    package init(environment: [String: String] = PromptStyle.styleEnvironment(),
         isTerminal: Bool = Stderr.isTerminal) {
        let dumb = environment["TERM"] == "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        live = isTerminal && !dumb
        colours = live && !noColor
    }

    package enum Colour: String {
        case green = "32"
        case red = "31"
        case yellow = "33"
        case dim = "2"
    }

    /// `text` in `colour` when colours are on, else unchanged.
    package func paint(_ text: String, _ colour: Colour) -> String {
        colours ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}
