import ArgumentParser
import NFCTapKit

/// Documented exit codes (README "Exit codes").
enum NFCTapExit {
    /// Success.
    static let ok = ExitCode(0)
    /// A failure: bad input, unreadable or malformed tag, write refused, pairing failed.
    static let failure = ExitCode(1)
    /// No tag was presented before the timeout.
    static let noTag = ExitCode(2)
    /// No reader service or no reader: pcscd not running, nothing attached, `--reader` matched nothing or several readers.
    static let noReader = ExitCode(3)
    /// Interrupted by Ctrl-C / SIGTERM.
    static let interrupted = ExitCode(130)
}
