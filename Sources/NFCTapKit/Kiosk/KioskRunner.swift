import CoreNFCLinux
import Foundation
import Logging
import NDEF
import ReaderCore
import Synchronization

/// `nfctap kiosk`'s engine: one multi-read session at a time, forever; every tag goes to the
/// configured action, whose result decides the reader's feedback.
///
/// - Sessions have no time limit, survive readers and the service coming and going
///   (`readerRemovalEndsSession = false`), and collect tag details. A session that ends anyway
///   (1: no pcscd / no backend, 202, 203) is started again after a capped backoff (0.5 s → 10 s).
/// - `stop()` (SIGTERM/SIGINT): the tag in hand is finished, the session ends, `run()` returns.
/// - `reload(_:)` (SIGHUP): a valid configuration replaces the running one (a new action for the
///   next tap; a new session when readers, backends or feedback changed); a bad one is logged
///   and the running one kept.
///
/// Tests and the soak drive it in-process with injected backends, clock and sleep.
package final class KioskRunner: Sendable {

    /// What the runner gets from outside (replaced by tests and the soak).
    package struct Dependencies: Sendable {
        /// The backends for one session.
        package var makeBackends: @Sendable (KioskConfiguration) throws -> [any ReaderBackend]
        /// The action for a configuration (opens its output).
        package var makeAction: @Sendable (KioskConfiguration) throws -> any KioskAction
        /// Now, for the duplicate window and the backoff.
        package var now: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
        /// Waits between sessions (cancelled by `stop()` and `reload`).
        package var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        /// Called for every `KioskEvent`, on the thread where it happened.
        package var observe: @Sendable (KioskEvent) -> Void = { _ in }

        package init(makeBackends: @escaping @Sendable (KioskConfiguration) throws -> [any ReaderBackend],
                     makeAction: @escaping @Sendable (KioskConfiguration) throws -> any KioskAction,
                     now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
                     sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                     observe: @escaping @Sendable (KioskEvent) -> Void = { _ in }) {
            self.makeBackends = makeBackends
            self.makeAction = makeAction
            self.now = now
            self.sleep = sleep
            self.observe = observe
        }
    }

    private struct State {
        var configuration: KioskConfiguration
        var action: any KioskAction
        var logger: Logger
        var stopping = false
        var restartRequested = false
        /// Ends the session being run (handed from the run loop to `stop()` and `reload`).
        var session: NFCSessionInvalidator?
        var pause: Task<Void, any Error>?
        /// UIDs handled successfully, and when (for the duplicate window).
        var recent: [String: ContinuousClock.Instant] = [:]
        var sessionsStarted = 0
        var tapsHandled = 0
    }

    private let state: Mutex<State>
    /// Held while an action runs; a reload swaps actions under it, so the old action is never
    /// closed under a tap.
    private let actionGate = Mutex(())
    private let dependencies: Dependencies
    /// `--quiet`: no LED/buzzer whatever the configuration says.
    private let quiet: Bool
    private let slot = NFCSessionSlot()

    /// - Throws: `RecordFileError` when the configured output cannot be opened.
    package init(configuration: KioskConfiguration, logger: Logger, quiet: Bool = false, dependencies: Dependencies) throws {
        var logger = logger
        logger.logLevel = configuration.logLevel
        let action = try dependencies.makeAction(configuration)
        self.state = Mutex(State(configuration: configuration, action: action, logger: logger))
        self.dependencies = dependencies
        self.quiet = quiet
    }

    package var configuration: KioskConfiguration { state.withLock { $0.configuration } }
    private var logger: Logger { state.withLock { $0.logger } }

    private func emit(_ event: KioskEvent) { dependencies.observe(event) }

    // MARK: The session loop

    /// Runs sessions until `stop()`. Returns once the last session has ended and the action
    /// is closed.
    package func run() async {
        var backoff = KioskBackoff()
        while let (session, attempt) = startSession() {
            let started = dependencies.now()
            logger.info("session started", metadata: ["attempt": "\(attempt)"])
            emit(.sessionStarted(attempt: attempt))
            var ending: NFCReaderError?
            do {
                for try await event in session.events { observe(event) }
            } catch let error as NFCReaderError {
                ending = error
            } catch {
                ending = NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, message: "\(error)")
            }
            let (stopping, restart) = state.withLock { s -> (Bool, Bool) in
                s.session = nil
                defer { s.restartRequested = false }
                return (s.stopping, s.restartRequested)
            }
            if stopping { break }
            if restart {
                backoff.reset()
                logger.info("session restarted", metadata: ["reason": "configuration reloaded"])
                emit(.sessionRestarted)
                continue
            }
            if dependencies.now() - started >= backoff.maximum { backoff.reset() }
            let delay = backoff.next()
            let reason = ending?.localizedDescription ?? "the session ended"
            var metadata: Logger.Metadata = ["reason": "\(reason)", "retry_in": "\(Self.seconds(delay))s"]
            if let code = ending?.code.rawValue { metadata["code"] = "\(code)" }
            logger.warning("session ended", metadata: metadata)
            emit(.sessionEnded(code: ending?.code.rawValue, reason: reason, retryIn: delay))
            await pause(delay)
        }
        let action = state.withLock { $0.action }
        actionGate.withLock { _ in action.close() }
        logger.notice("stopped")
        emit(.stopped)
    }

    /// A new session for the current configuration, registered before it starts; nil once stopping.
    private func startSession() -> (NFCNDEFReaderSession, Int)? {
        state.withLock { s -> (NFCNDEFReaderSession, Int)? in
            guard !s.stopping else { return nil }
            let session = NFCNDEFReaderSession(configuration: sessionConfiguration(s.configuration),
                                               environment: environment(s.configuration))
            s.session = session.invalidator
            s.sessionsStarted += 1
            return (session, s.sessionsStarted)
        }
    }

    private func sessionConfiguration(_ c: KioskConfiguration) -> NFCSessionConfiguration {
        var sc = NFCSessionConfiguration()
        sc.timeLimit = nil
        sc.readerRemovalEndsSession = false
        sc.collectTagDetails = true
        // Each tag is handled on its own: no need to wait for companions (the default 100 ms).
        sc.batchWindow = .zero
        sc.readerFilter = c.readerFilter
        sc.operationTimeout = c.operationTimeout
        sc.readerFeedback = c.feedback && !quiet
        sc.tagReportHandler = { [weak self] report in self?.handleTap(report) ?? false }
        sc.alertHandler = { [weak self] text in self?.logger.notice("\(text)") }
        return sc
    }

    private func environment(_ c: KioskConfiguration) -> NFCReaderEnvironment {
        let make = dependencies.makeBackends
        return NFCReaderEnvironment(
            makeBackends: { try make(c) },
            makeNDEFOperations: { try $0.ndefOperations() },
            slot: slot)
    }

    private func observe(_ event: NFCSessionEvent) {
        switch event {
        case let .readerAdded(info):
            logger.info("reader added", metadata: ["reader": "\(info.name)", "backend": "\(info.backend.rawValue)"])
            emit(.readerAdded(info.name))
        case let .readerRemoved(info):
            logger.warning("reader removed", metadata: ["reader": "\(info.name)", "backend": "\(info.backend.rawValue)"])
            emit(.readerRemoved(info.name))
        case let .serviceLost(kind, error):
            serviceChanged(kind, error)
        case let .serviceRestored(kind):
            serviceChanged(kind, nil)
        default:
            break
        }
    }

    private func serviceChanged(_ kind: ReaderBackendKind, _ error: ReaderError?) {
        let name = kind == .pcsc ? "pcscd" : kind.rawValue
        if let error {
            logger.error("reader service lost", metadata: ["backend": "\(name)", "reason": "\(error.description)"])
            emit(.serviceLost(backend: name, reason: error.description))
        } else {
            logger.notice("reader service restored", metadata: ["backend": "\(name)"])
            emit(.serviceRestored(backend: name))
        }
    }

    /// Waits `delay` unless stopped or reloaded meanwhile.
    private func pause(_ delay: Duration) async {
        let sleep = dependencies.sleep
        let task = Task { try await sleep(delay) }
        let proceed = state.withLock { s -> Bool in
            guard !s.stopping else { return false }
            s.pause = task
            return true
        }
        if !proceed { task.cancel() }
        _ = await task.result
        state.withLock { $0.pause = nil }
    }

    package static func seconds(_ d: Duration) -> String {
        let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000)" : String(format: "%.1f", Double(ms) / 1000)
    }

    // MARK: Taps

    /// The session's `tagReportHandler`: the action's verdict (duplicates within the window
    /// count as handled). Runs on the session queue, one tag at a time.
    package func handleTap(_ report: NFCTagReport) -> Bool {
        actionGate.withLock { _ in handleTapHoldingGate(report) }
    }

    private func handleTapHoldingGate(_ report: NFCTagReport) -> Bool {
        let uid = report.tag.uid.hexString
        let now = dependencies.now()
        let (action, logger, window, duplicate) = state.withLock { s -> (any KioskAction, Logger, Duration, Bool) in
            let window = s.configuration.duplicateWindow
            s.recent = s.recent.filter { now - $0.value < window }
            return (s.action, s.logger, window, s.recent[uid] != nil)
        }
        var tagMeta: Logger.Metadata = [
            "uid": "\(uid)", "type": "\(report.tag.technology.rawValue)", "reader": "\(report.tag.reader.name)",
        ]
        if let product = report.details?.product { tagMeta["product"] = "\(product)" }
        if let error = report.error, error.code != .ndefReaderSessionErrorZeroLengthMessage {
            tagMeta["read_error"] = "\(error.localizedDescription)"
            tagMeta["code"] = "\(error.code.rawValue)"
        }
        logger.info("tag read", metadata: tagMeta)
        if duplicate {
            logger.info("duplicate tap ignored", metadata: ["uid": "\(uid)", "window": "\(Self.seconds(window))s"])
            emit(.tap(uid: uid, reader: report.tag.reader.name, succeeded: true, duplicate: true))
            return true
        }
        let result = action.handle(report)
        var meta = result.metadata
        meta["uid"] = "\(uid)"
        meta["ok"] = "\(result.succeeded)"
        meta["result"] = "\(result.summary)"
        if result.succeeded {
            logger.info("action result", metadata: meta)
        } else {
            logger.error("action result", metadata: meta)
        }
        state.withLock { s in
            s.tapsHandled += 1
            if result.succeeded, window > .zero, report.completed { s.recent[uid] = now }
        }
        emit(.tap(uid: uid, reader: report.tag.reader.name, succeeded: result.succeeded, duplicate: false))
        return result.succeeded
    }

    // MARK: Signals

    /// Ends the kiosk: the tag in hand is finished first, then `run()` returns.
    package func stop(signal: Int32 = SIGTERM) {
        let (running, pause) = state.withLock { s -> (NFCSessionInvalidator?, Task<Void, any Error>?) in
            s.stopping = true
            return (s.session, s.pause)
        }
        logger.notice("stopping", metadata: ["signal": "\(signal)"])
        running?.invalidate(reason: .signal(signal))
        pause?.cancel()
    }

    /// Replaces the configuration with `load()`'s if it is valid and its output opens; else logs
    /// why and keeps the running one. Returns whether the new one was taken.
    @discardableResult
    package func reload(_ load: () throws -> KioskConfiguration) -> Bool {
        let fresh: KioskConfiguration
        let action: any KioskAction
        do {
            fresh = try load()
            action = try dependencies.makeAction(fresh)
        } catch {
            logger.error("configuration reload failed; keeping the running configuration", metadata: ["error": "\(error)"])
            emit(.reloaded(succeeded: false))
            return false
        }
        let (old, session, pause) = actionGate.withLock { _ in
            state.withLock { s -> (any KioskAction, NFCSessionInvalidator?, Task<Void, any Error>?) in
                let old = s.action
                let newSession = fresh.needsNewSession(comparedTo: s.configuration)
                s.action = action
                s.configuration = fresh
                s.logger.logLevel = fresh.logLevel
                s.recent = [:]
                if newSession, s.session != nil { s.restartRequested = true }
                return (old, newSession ? s.session : nil, s.pause)
            }
        }
        old.close()
        logger.notice("configuration reloaded", metadata: ["action": "\(fresh.actionName)", "new_session": "\(session != nil)"])
        emit(.reloaded(succeeded: true))
        session?.invalidate()
        pause?.cancel()
        return true
    }

    /// Counters for tests and the soak.
    package var sessionsStarted: Int { state.withLock { $0.sessionsStarted } }
    package var tapsHandled: Int { state.withLock { $0.tapsHandled } }
}

extension KioskConfiguration {
    /// `json`, `exec`, `pair` (for logs).
    package var actionName: String {
        switch action {
        case .json: return "json"
        case .exec: return "exec"
        case .pair: return "pair"
        }
    }
}
