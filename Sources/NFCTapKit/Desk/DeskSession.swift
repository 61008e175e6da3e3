import SafeText
import CoreNFCLinux
import Dispatch

/// What `scan`, `write` and `apdu` share around their session: the settings from their options,
/// and one way of running it — `for try await event in session.events` — with Ctrl-C/SIGTERM ending
/// the session (Core NFC's 200) rather than the process.
package enum DeskSession {
    /// How a session's event stream ended.
    package struct Ending: Sendable {
        /// The error that ended the session; nil when it ended quietly (200 by `invalidate()` or a
        /// signal, 204 after a single read).
        package var error: NFCReaderError?
        /// The signal that ended it, if one did.
        package var signal: Int32?

        /// The session's end as Core NFC names it (a quiet end is 200).
        package var code: NFCReaderError {
            error ?? NFCReaderError(.readerSessionInvalidationErrorUserCanceled)
        }
    }

    /// `--timeout` (0 = no limit), `--reader`, and alert messages shown through the prompt.
    package static func configuration(timeout: Double, readers: DeskReaders, prompt: Prompt) -> NFCSessionConfiguration {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = timeout > 0 ? .seconds(timeout) : nil
        configuration.readerFilter = readers.filter
        configuration.operationTimeout = readers.operationTimeout
        configuration.alertHandler = { [prompt] text in prompt.message(SafeText.escaped(text)) }
        return configuration
    }

    /// Begins `session` by iterating its events, hands each to `body` in order, and returns once
    /// the session has ended (its connections closed); SIGINT/SIGTERM invalidate it. The prompt is
    /// stopped at the end.
    package static func run(_ session: NFCReaderSession, prompt: Prompt,
                            _ body: (NFCSessionEvent) async -> Void) async -> Ending {
        let invalidator = session.invalidator
        let signalled = SignalRecord()
        let trap = SignalTrap(queue: DispatchQueue(label: "nfctap.session.signals")) { number in
            signalled.note(number)
            invalidator.invalidate(reason: .signal(number))
        }
        defer {
            prompt.stop()
            withExtendedLifetime(trap) {}
        }
        var ending = Ending()
        do {
            for try await event in session.events { await body(event) }
        } catch let error as NFCReaderError {
            ending.error = error
        } catch {
            ending.error = NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, message: "\(error)")
        }
        ending.signal = signalled.first
        return ending
    }
}
