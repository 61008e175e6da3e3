import ArgumentParser
import NFCTapKit

/// Documented exit codes (README "Exit codes"), as ArgumentParser's `ExitCode`.
enum NFCTapExit {
    static let ok = ExitCode(ExitStatus.ok)
    static let failure = ExitCode(ExitStatus.failure)
    static let noTag = ExitCode(ExitStatus.noTag)
    static let noReader = ExitCode(ExitStatus.noReader)
    static let interrupted = ExitCode(ExitStatus.interrupted)
}
