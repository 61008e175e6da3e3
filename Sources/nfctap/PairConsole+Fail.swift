import ArgumentParser
import NFCTapKit

extension PairConsole {
    /// Writes `nfctap: error: …` and exits with `code`.
    func fail(_ message: String, code: ExitCode) -> Never {
        stopSpinner()
        Pair.fail(CLIError(message, exit: code))
    }
}
