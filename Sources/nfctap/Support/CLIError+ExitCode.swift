import ArgumentParser
import Foundation
import NFCTapKit

extension CLIError {
    /// A failure with the message the user sees and the documented exit code.
    init(_ message: String, exit: ExitCode) {
        self.init(message, status: exit.rawValue)
    }

    var exit: ExitCode { ExitCode(status) }
}

extension ParsableCommand {
    /// Prints `nfctap: error: <message>` on stderr and exits with the error's code, for the few
    /// places that cannot throw (a signal handler's path); commands throw the `CLIError` instead.
    static func fail(_ error: CLIError) -> Never {
        Stderr.line(CLIError.line(error.message))
        Foundation.exit(CommandEnd.status(after: error.status))
    }
}
