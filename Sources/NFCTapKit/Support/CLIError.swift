/// A failure with the message the user sees and its documented exit status (README, "Exit codes").
///
/// Commands throw it; the executable's entry point prints it once, as `nfctap: error: <message>`,
/// and exits with `status`. The same line format is used for every error nfctap prints
/// (`CLIError.line`), argument errors included.
public struct CLIError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var status: Int32

    package init(_ message: String, status: Int32 = ExitStatus.failure) {
        self.message = message
        self.status = status
    }

    public var description: String { message }

    /// A failure the command already reported in its own words (the kiosk's log, inventory's
    /// progress lines): `main` prints nothing more and exits with `status`.
    package static func reported(status: Int32) -> CLIError {
        CLIError("", status: status)
    }

    /// The one format of an error line on stderr.
    package static func line(_ message: String) -> String {
        "nfctap: error: \(message)"
    }
}
