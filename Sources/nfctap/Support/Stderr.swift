import ArgumentParser
import Foundation
import NFCTapKit

/// A failure with the message the user sees and the documented exit code.
struct CLIError: Error, CustomStringConvertible, Sendable {
    var message: String
    var exit: ExitCode

    init(_ message: String, exit: ExitCode = NFCTapExit.failure) {
        self.message = message
        self.exit = exit
    }

    var description: String { message }
}

extension ParsableCommand {
    /// Prints `nfctap: error: <message>` on stderr and exits with the error's code. Every
    /// subcommand ends this way on failure, so the format and codes are the same everywhere.
    static func fail(_ error: CLIError) -> Never {
        Stderr.line("nfctap: error: \(error.message)")
        Self.exit(withError: error.exit)
    }
}
