import SafeText
import CoreNFCLinux
import Foundation
import Synchronization
import ZebraPrinter

/// Waits for a Zebra printer tag: a read session over `NFCReaderEnvironment.shared` that goes on
/// through taps of other tags (each gets a line saying what it holds and the reader's red light)
/// until a printer tag (green + beep), an unusable Zebra tag, the time limit, or `interrupt`.
package final class PrinterTapWaiter: Sendable {
    package enum Outcome: Sendable {
        case printer(PrinterIdentity)
        /// A Zebra URL with a broken query.
        case unusable(ZebraTagError)
        /// The session ended without a printer tag: 201 timeout, 1 no reader / no pcscd, 202 reader
        /// gone, … (nil: it ended without an error, which only an interrupt does).
        case ended(NFCReaderError?)
        case interrupted(Int32)
    }

    private let console: PairConsole
    private let configuration: NFCSessionConfiguration
    private let environment: NFCReaderEnvironment
    private struct State {
        /// Ends the running session for a signal.
        var invalidator: NFCSessionInvalidator?
        var interruptedBy: Int32?
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - timeout: the session's time limit; nil = wait until interrupted.
    ///   - operationTimeout: `--io-timeout`: a tag silent this long counts as lost.
    package init(console: PairConsole, readerFilter: NFCReaderFilter, timeout: Duration?,
         environment: NFCReaderEnvironment = .shared, operationTimeout: Duration? = .seconds(5)) {
        self.console = console
        self.environment = environment
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = timeout
        configuration.operationTimeout = operationTimeout
        configuration.readerFilter = readerFilter
        // Green + beep only for a printer tag; red for anything else (runs before the feedback).
        configuration.tagReportHandler = { PairTagVerdict($0).isPrinter }
        self.configuration = configuration
    }

    /// Runs the session's events until the outcome is known.
    package func wait() async -> Outcome {
        let session = NFCNDEFReaderSession(invalidateAfterFirstRead: false, configuration: configuration,
                                           environment: environment)
        let early = state.withLock { s in
            s.invalidator = session.invalidator
            return s.interruptedBy
        }
        if let early { session.invalidate(reason: .signal(early)) }
        let deadline = configuration.timeLimit.map { ContinuousClock.now + $0 }
        let outcome = await run(session, deadline: deadline)
        console.stopSpinner()
        let signal = state.withLock { s in
            s.invalidator = nil
            return s.interruptedBy
        }
        if let signal { return .interrupted(signal) }
        return outcome
    }

    /// Ends the wait (SIGINT/SIGTERM/SIGHUP): the session is invalidated with Core NFC's 200.
    package func interrupt(_ signal: Int32) {
        // Under the lock: invalidating only queues the session's end, it calls nothing back here.
        state.withLock { s in
            s.interruptedBy = signal
            s.invalidator?.invalidate(reason: .signal(signal))
        }
    }

    private func run(_ session: NFCNDEFReaderSession, deadline: ContinuousClock.Instant?) async -> Outcome {
        var prompted = false
        do {
            // Returning from inside the loop ends the session (200).
            for try await event in session.events {
                switch event {
                case .readerAdded(let reader):
                    // Readers are reported one by one: the first gets the prompt, others a line each.
                    if prompted {
                        console.line("…or near \(SafeText.escaped(reader.name))")
                    } else {
                        prompted = true
                        console.line("Hold the printer's NFC tag (the Print Touch logo) near \(SafeText.escaped(reader.name))…")
                        console.startSpinner(deadline: deadline)
                    }
                case .tagReport(let report):
                    let verdict = PairTagVerdict(report)
                    switch verdict {
                    case .printer(let identity): return .printer(identity)
                    case .unusableZebra(let error): return .unusable(error)
                    case .notZebra, .unreadable: console.line(verdict.message)
                    }
                default:
                    continue
                }
            }
            return .ended(nil)
        } catch let error as NFCReaderError {
            return .ended(error)
        } catch {
            return .ended(NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly,
                                         message: String(describing: error)))
        }
    }
}
