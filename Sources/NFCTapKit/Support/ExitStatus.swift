/// Documented exit statuses (README, "Exit codes"): what a thrown `CLIError` carries.
package enum ExitStatus {
    /// Success.
    package static let ok: Int32 = 0
    /// A failure: bad input, unreadable or malformed tag, write refused, pairing failed.
    package static let failure: Int32 = 1
    /// No tag was presented before the timeout.
    package static let noTag: Int32 = 2
    /// No reader service or no reader: pcscd not running, nothing attached, `--reader` matched nothing or several readers.
    package static let noReader: Int32 = 3
    /// A usage error: an unknown option, a bad argument (ArgumentParser's `validationFailure`).
    package static let usage: Int32 = 64
    /// Interrupted by Ctrl-C / SIGTERM.
    package static let interrupted: Int32 = 130
}
