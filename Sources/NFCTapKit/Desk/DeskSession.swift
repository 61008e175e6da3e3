import CoreNFCLinux
import Dispatch

/// What `scan`, `write` and `apdu` share around their session: the settings from their options,
/// and running it until the command's outcome is decided, with Ctrl-C/SIGTERM ending the session
/// (Core NFC's 200) rather than the process.
package enum DeskSession {
    /// `--timeout` (0 = no limit), `--reader`, and alert messages shown through the prompt.
    package static func configuration(timeout: Double, readers: DeskReaders, prompt: Prompt) -> NFCSessionConfiguration {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = timeout > 0 ? .seconds(timeout) : nil
        configuration.readerFilter = readers.filter
        configuration.operationTimeout = readers.operationTimeout
        configuration.alertHandler = { [prompt] text in prompt.message(NDEFText.safe(text)) }
        return configuration
    }

    /// Begins `session`, waits for `outcome`'s decision, stops the prompt.
    package static func run(_ session: NFCReaderSession, outcome: ScanOutcome, prompt: Prompt) -> ScanOutcome.Decision {
        let trap = SignalTrap(queue: DispatchQueue(label: "nfctap.session.signals")) { number in
            session.invalidate(reason: .signal(number))
        }
        session.begin()
        let decision = outcome.wait()
        prompt.stop()
        withExtendedLifetime((trap, session)) {}
        return decision
    }
}
