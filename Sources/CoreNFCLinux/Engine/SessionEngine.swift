import Dispatch
import Foundation
import NFCTags
import ReaderCore
import Synchronization

/// True the first time `raise()` is called.
final class OnceFlag: Sendable {
    private let raised = Atomic(false)
    func raise() -> Bool {
        !raised.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// What a session class does with the engine's news. Called on the engine queue.
protocol SessionEngineHost: AnyObject {
    func engineDidBecomeActive(_ engine: SessionEngine)
    /// Tags that arrived within one batch window (polling is running).
    func engine(_ engine: SessionEngine, didDetect batch: [TagPresence])
    /// The session ended; called exactly once.
    func engine(_ engine: SessionEngine, didInvalidateWith error: NFCReaderError)
    /// Whether gathering tags into one batch can change what the session reports (engine queue).
    /// A single-read session reads the first tag with a message either way: it reports at once.
    var batchingChangesResult: Bool { get }
}

extension SessionEngineHost {
    var batchingChangesResult: Bool { true }
}

/// The state machine shared by every session class: readers, tag presence, batching, polling,
/// the time limit, connections, one invalidation. The state machine runs on one serial queue that
/// never waits for a tag: every tag exchange runs on its reader's lane (`ReaderLane`) under the
/// operation deadline, so a stuck card holds only its own reader (SessionEngine+Lanes.swift).
/// State read from other threads sits behind `state`; what the engine queue owns sits in
/// `confined`, which traps when touched from any other context.
// @unchecked: `host` (weak, the session: not Sendable, as on iOS) is set once before `begin()`; all other mutable state is in `state` (a Mutex) or `confined` (QueueBound).
final class SessionEngine: @unchecked Sendable {
    enum Phase { case idle, starting, active, invalidated }

    struct State: Sendable {
        var phase: Phase = .idle
        var configuration: NFCSessionConfiguration
        /// Bumped by `restartPolling()`: tag objects of older generations are stale.
        var generation = 0
        var finalError: NFCReaderError?
        /// `invalidate()` was called: deliveries still queued are dropped.
        var invalidatedByUser = false
        var connectedTag: SessionTag?
        var subscribers: [UUID: AsyncThrowingStream<NFCSessionEvent, any Error>.Continuation] = [:]
        /// Delegate deliveries: how many were queued, and how many of them were queued before the
        /// last event reached the streams (those the stream's consumer may already have acted on).
        var deliveriesQueued = 0
        var deliveriesCommitted = 0
        /// Set when a stream's consumer ended the session: deliveries after this number are dropped.
        var streamCutoff: Int?
        /// Non-nil while a host holds events back until its delegate callback is queued.
        var heldEvents: [NFCSessionEvent]?
        /// The readers the session began with (`NFCReaderSession.readersAtStart`).
        var readersAtStart: [ReaderInfo] = []
        /// The last tag that arrived on one of the session's readers (`NFCReaderSession.lastDetectedTag`).
        var lastDetectedTag: DetectedTag?
    }

    let queue = DispatchQueue(label: "nfctap.session.engine")
    let sessionQueue: DispatchQueue
    let environment: NFCReaderEnvironment
    weak var host: (any SessionEngineHost)?
    let state: Mutex<State>

    /// What the engine owns on its queue: every access checks that it runs there (`QueueBound`).
    struct Confined {
        var retainedHost: (any SessionEngineHost)?
        var monitors: [any ReaderMonitor] = []
        /// The backends being monitored, held while the session runs: the monitor callbacks hold
        /// them weakly, and an environment may make fresh backends for each session.
        var monitoredBackends: [any ReaderBackend] = []
        var readers: [String: (info: ReaderInfo, backend: any ReaderBackend)] = [:]
        var present: [TagPresence] = []
        var pending: [TagPresence] = []
        var pollingPaused = false
        var batchTimer: (any NFCScheduledAction)?
        var batchQueued = false
        var limitTimer: (any NFCScheduledAction)?
        var watchdogTimer: (any NFCScheduledAction)?
        /// Per backend: readers its service listed at the watchdog's last check that the session was not watching.
        var unwatched: [ObjectIdentifier: Set<String>] = [:]
        var connection: ActiveConnection?
        /// The shared lock that pauses `nfctap agent` while this session runs (BackgroundReadingPause.swift).
        var backgroundReadingHold: NFCBackgroundReading.Hold?
        /// Tag operations running on reader lanes, with what ends each early.
        var inFlight: [ObjectIdentifier: (operation: TagOperation, expire: (NFCReaderError) -> Void)] = [:]
        /// Counts `connect(to:)` calls: only the latest one's connection is kept.
        var connectRequests = 0
    }

    private let confined: QueueBound<Confined>

    private var retainedHost: (any SessionEngineHost)? {
        get { confined.value.retainedHost } set { confined.value.retainedHost = newValue }
    }
    var monitors: [any ReaderMonitor] {
        get { confined.value.monitors } set { confined.value.monitors = newValue }
    }
    var monitoredBackends: [any ReaderBackend] {
        get { confined.value.monitoredBackends } set { confined.value.monitoredBackends = newValue }
    }
    var readers: [String: (info: ReaderInfo, backend: any ReaderBackend)] {
        get { confined.value.readers } set { confined.value.readers = newValue }
    }
    private var present: [TagPresence] {
        get { confined.value.present } set { confined.value.present = newValue }
    }
    private var pending: [TagPresence] {
        get { confined.value.pending } set { confined.value.pending = newValue }
    }
    private var pollingPaused: Bool {
        get { confined.value.pollingPaused } set { confined.value.pollingPaused = newValue }
    }
    private var batchTimer: (any NFCScheduledAction)? {
        get { confined.value.batchTimer } set { confined.value.batchTimer = newValue }
    }
    private var batchQueued: Bool {
        get { confined.value.batchQueued } set { confined.value.batchQueued = newValue }
    }
    private var limitTimer: (any NFCScheduledAction)? {
        get { confined.value.limitTimer } set { confined.value.limitTimer = newValue }
    }
    var connection: ActiveConnection? {
        get { confined.value.connection } set { confined.value.connection = newValue }
    }
    var watchdogTimer: (any NFCScheduledAction)? {
        get { confined.value.watchdogTimer } set { confined.value.watchdogTimer = newValue }
    }
    var unwatched: [ObjectIdentifier: Set<String>] {
        get { confined.value.unwatched } set { confined.value.unwatched = newValue }
    }
    private var backgroundReadingHold: NFCBackgroundReading.Hold? {
        get { confined.value.backgroundReadingHold } set { confined.value.backgroundReadingHold = newValue }
    }
    var inFlight: [ObjectIdentifier: (operation: TagOperation, expire: (NFCReaderError) -> Void)] {
        get { confined.value.inFlight } set { confined.value.inFlight = newValue }
    }
    var connectRequests: Int {
        get { confined.value.connectRequests } set { confined.value.connectRequests = newValue }
    }
    /// Serializes `tagReportHandler` calls, which come from several reader lanes.
    let reportLock = Mutex(())

    init(sessionQueue: DispatchQueue, configuration: NFCSessionConfiguration, environment: NFCReaderEnvironment) {
        self.sessionQueue = sessionQueue
        self.environment = environment
        self.state = Mutex(State(configuration: configuration))
        self.confined = QueueBound(sending: Confined(), to: queue)
    }

    var configuration: NFCSessionConfiguration { state.withLock { $0.configuration } }
    var phase: Phase { state.withLock { $0.phase } }
    var isReady: Bool { phase == .active }
    var generation: Int { state.withLock { $0.generation } }
    var connectedTag: SessionTag? { state.withLock { $0.connectedTag } }

    // MARK: Starting

    /// Starts the session once; later calls do nothing (a session is not reusable).
    func begin() {
        let proceed = state.withLock { s -> Bool in
            guard s.phase == .idle else { return false }
            s.phase = .starting
            return true
        }
        guard proceed else { return }
        queue.async { self.start() }
    }

    private func start() {
        guard phase == .starting else { return }
        retainedHost = host  // the "system" keeps an active session alive, as on iOS
        guard environment.slot.acquire(self) else {
            finish(NFCReaderError(.readerSessionInvalidationErrorSystemIsBusy,
                                  message: "another NFC reader session is already active"))
            return
        }
        let config = configuration
        if config.pausesBackgroundReading { backgroundReadingHold = NFCBackgroundReading.holdForSession() }
        let backends: [any ReaderBackend]
        do {
            backends = try environment.makeBackends()
        } catch {
            finish(NFCReaderError(.readerErrorUnsupportedFeature, message: String(describing: error)))
            return
        }
        var attached: [ReaderInfo] = []
        var failures: [any Error] = []
        var usable: [any ReaderBackend] = []
        for backend in backends {
            do {
                attached += try backend.listReaders()
                usable.append(backend)
            } catch {
                failures.append(error)
            }
        }
        let selected: [ReaderInfo]
        do {
            selected = try config.readerFilter.select(from: attached)
        } catch {
            finish(NFCReaderError(.readerErrorUnsupportedFeature, message: String(describing: error)))
            return
        }
        // iOS semantics: no reader now is the end (code 1). A kiosk-style session
        // (readerRemovalEndsSession = false) waits instead, watching every backend — also one
        // whose service is down now (pcscd not started yet): its monitor reports it coming back.
        let waitForReaders = !config.readerRemovalEndsSession
        if !waitForReaders, usable.isEmpty || selected.isEmpty {
            finish(NFCReaderError(.readerErrorUnsupportedFeature,
                                  message: Self.noReaderMessage(attached: attached, failures: failures, filter: config.readerFilter)))
            return
        }
        for backend in waitForReaders ? backends : usable {
            do {
                monitors.append(try startMonitor(backend))
                monitoredBackends.append(backend)
            } catch {
                failures.append(error)
            }
        }
        if monitors.isEmpty {
            finish(NFCReaderError(.readerErrorUnsupportedFeature,
                                  message: Self.noReaderMessage(attached: [], failures: failures, filter: config.readerFilter)))
            return
        }
        if waitForReaders { scheduleReaderWatchdog() }
        if let limit = config.timeLimit {
            limitTimer = schedule(after: limit) { [weak self] in
                self?.finish(NFCReaderError(.readerSessionInvalidationErrorSessionTimeout,
                                            message: "session timeout after \(limit)"))
            }
        }
        var names = Set<String>()
        let startingReaders = selected.filter { names.insert($0.name).inserted }
        state.withLock { s in
            s.readersAtStart = startingReaders
            s.phase = .active
        }
        host?.engineDidBecomeActive(self)
    }

    /// Starts watching `backend`; its events reach `handle(_:from:)` on the engine queue.
    func startMonitor(_ backend: any ReaderBackend) throws(ReaderError) -> any ReaderMonitor {
        let monitor = try backend.startMonitoring { [weak self, weak backend] event in
            guard let self, let backend else { return }
            self.queue.async { self.handle(event, from: backend) }
        }
        MonitorsAtExit.track(monitor)  // stopped before the C libraries' teardown if the app exits now
        return monitor
    }

    /// Error 1's message: says what is missing and how to fix it.
    static func noReaderMessage(attached: [ReaderInfo], failures: [any Error], filter: NFCReaderFilter) -> String {
        let hints = failures.map { String(describing: $0) }
        if attached.isEmpty {
            if !hints.isEmpty { return hints.joined(separator: "; ") }
            return "no NFC reader is attached: plug in a reader (and check that pcscd is running: `sudo systemctl start pcscd`)"
        }
        let names = attached.map(\.name).joined(separator: ", ")
        switch filter {
        case .all: return "no usable NFC reader (attached: \(names))"
        case let .nameContains(text), let .exactName(text):
            if let hint = stackContentionHint(wanted: text, attached: attached) { return hint }
            return "no reader matches \"\(text)\" (attached: \(names)); choose one of those names"
        case let .nameContainsAny(texts):
            return "no reader matches any of \(texts.map { "\"\($0)\"" }.joined(separator: ", ")) (attached: \(names))"
        }
    }

    // MARK: Reader events

    private func handle(_ event: ReaderEvent, from backend: any ReaderBackend) {
        guard phase == .active else { return }
        switch event {
        case let .readerAdded(info):
            guard readers[info.name] == nil,
                  configuration.readerFilter.admits(info, current: readers.values.map(\.info)) else { return }
            readers[info.name] = (info, backend)
            emit(.readerAdded(info))
        case let .readerRemoved(info):
            guard readers[info.name] != nil else { return }
            removeReader(info)
            if configuration.readerRemovalEndsSession {
                finish(NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly,
                                      message: ReaderError.readerGone(info.name).description))
            }
        case let .tagArrived(tag):
            if readers[tag.reader.name] == nil {
                guard configuration.readerFilter.admits(tag.reader, current: readers.values.map(\.info)) else { return }
                readers[tag.reader.name] = (tag.reader, backend)
                emit(.readerAdded(tag.reader))
            }
            guard !present.contains(where: { $0.matches(tag) }) else { return }
            present.append(TagPresence(detected: tag, backend: backend))
            state.withLock { $0.lastDetectedTag = tag }
            emit(.tagArrived(tag))
            schedulePolling()
        case let .tagLeft(tag):
            guard let presence = present.first(where: { $0.matches(tag) }) else { return }
            lose(presence)
        case let .serviceLost(error):
            emit(.serviceLost(backend.kind, error))
            for (_, reader) in readers where reader.backend === backend {
                removeReader(reader.info)
            }
            if configuration.readerRemovalEndsSession {
                finish(NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, message: error.description))
            }
        case .serviceRestored:
            emit(.serviceRestored(backend.kind))  // the backend reports its readers again
        }
    }

    func removeReader(_ info: ReaderInfo) {
        readers[info.name] = nil
        for presence in present where presence.detected.reader.name == info.name {
            lose(presence)
        }
        emit(.readerRemoved(info))
    }

    /// The tag left (or its reader did): objects for it become unavailable, a connection to it closes.
    private func lose(_ presence: TagPresence) {
        state.withLock { _ in presence.isPresent = false }
        present.removeAll { $0 === presence }
        pending.removeAll { $0 === presence }
        expireOperations(on: presence)
        if connection?.tag.presence === presence {
            dropConnection()
        }
        emit(.tagLeft(presence.detected))
    }

    // MARK: Polling and batching

    /// Batches every present tag not yet reported in this generation; the batch is handed to
    /// the host one `batchWindow` after its first tag arrived.
    private func schedulePolling() {
        guard phase == .active, !pollingPaused else { return }
        let current = generation
        let fresh = present.filter { p in p.reportedGeneration != current && !pending.contains { $0 === p } }
        guard !fresh.isEmpty else { return }
        pending += fresh
        guard batchTimer == nil, !batchQueued else { return }
        let window = configuration.batchWindow
        // A reader holds one tag at a time (one PC/SC card per slot, one libnfc target): with a
        // single reader the batch cannot grow, so waiting out the window would only add latency;
        // nor is it waited for when a larger batch would report the same (a single read).
        if window <= .zero || readers.count <= 1 || host?.batchingChangesResult == false {
            // No window: the batch holds every event already queued (the readers' initial report).
            batchQueued = true
            queue.async { [weak self] in
                guard let self else { return }
                self.batchQueued = false
                self.fireBatch()
            }
        } else {
            batchTimer = schedule(after: window) { [weak self] in self?.fireBatch() }
        }
    }

    private func fireBatch() {
        batchTimer = nil
        guard phase == .active, !pollingPaused else { return }
        let current = generation
        let batch = pending.filter { $0.isPresent }
        pending = []
        guard !batch.isEmpty else { return }
        for presence in batch { presence.reportedGeneration = current }
        host?.engine(self, didDetect: batch)
    }

    /// Stops reporting new tags (after tags were handed to a read-write delegate, as iOS does).
    func pausePolling() {
        pollingPaused = true
        batchTimer?.cancel()
        batchTimer = nil
        pending = []
    }

    /// Reports tags again: those present and not yet reported come in the next batch.
    func resumePolling() {
        pollingPaused = false
        schedulePolling()
    }

    /// `restartPolling()`: tag objects handed out so far become stale, the connection closes, and
    /// every tag in the field is reported again as new objects.
    func restartPolling() {
        queue.async {
            guard self.phase == .active else { return }
            self.state.withLock { $0.generation += 1 }
            self.dropConnection()
            self.pending = []
            self.batchTimer?.cancel()
            self.batchTimer = nil
            self.resumePolling()
        }
    }

    // MARK: Time

    /// Runs `action` on the engine queue after `delay` of the session clock, unless the session
    /// ended or the timer was replaced.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any NFCScheduledAction {
        return environment.clock.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.queue.async {
                guard self.phase == .active else { return }
                action()
            }
        }
    }

    /// Runs `action` on the session queue after `delay` of the session clock, if still active then.
    /// `action` is the app's code (not Sendable, as on iOS): it runs on the session queue only.
    func scheduleOnSessionQueue(after delay: Duration, _ action: @escaping () -> Void) {
        let action = QueueBound(unchecked: action, to: sessionQueue)
        _ = environment.clock.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.sessionQueue.async {
                guard self.phase == .active else { return }
                action.value()
            }
        }
    }

    // MARK: Ending

    /// Ends the session from any thread (the app or the CLI): `error` reaches the delegate once.
    /// Deliveries still queued for the delegate are dropped when `byUser`.
    func invalidate(_ error: NFCReaderError, byUser: Bool) {
        let proceed = state.withLock { s -> Bool in
            guard s.phase != .invalidated else { return false }
            if byUser { s.invalidatedByUser = true }
            return true
        }
        guard proceed else { return }
        queue.async { self.finish(error) }
    }

    /// Ends the session (engine queue). Only the first call has an effect.
    func finish(_ error: NFCReaderError) {
        let subscribers: [AsyncThrowingStream<NFCSessionEvent, any Error>.Continuation]? = state.withLock { s in
            guard s.phase != .invalidated else { return nil }
            s.phase = .invalidated
            s.finalError = error
            s.connectedTag = nil
            for presence in present { presence.isPresent = false }
            let all = Array(s.subscribers.values)
            s.subscribers = [:]
            return all
        }
        guard let subscribers else { return }
        limitTimer?.cancel()
        batchTimer?.cancel()
        watchdogTimer?.cancel()
        limitTimer = nil
        batchTimer = nil
        watchdogTimer = nil
        pending = []
        for monitor in monitors {
            monitor.stop()
            MonitorsAtExit.untrack(monitor)
        }
        monitors = []
        monitoredBackends = []
        // Nothing here waits for a tag: a stuck exchange is abandoned and its connection closes
        // on its lane once the driver lets go. A read already past its exchanges (its report being
        // handled, the reader's feedback being given) is let finish before the end is announced.
        let concluding = inFlight.values.filter { $0.operation.isSettled }.map(\.operation.lane)
        abandonOperations()
        if let link = connection?.bound { closeOnLane(link) }
        connection = nil
        present = []
        readers = [:]
        environment.slot.release(self)
        backgroundReadingHold?.release()
        backgroundReadingHold = nil
        let host = retainedHost ?? self.host
        retainedHost = nil
        afterConclusions(on: concluding) {
            host?.engine(self, didInvalidateWith: error)
            for continuation in subscribers { Self.end(continuation, with: error) }
        }
    }

    /// Runs `body` on the engine queue once `lanes` have run what they had queued (a tap's report
    /// and feedback), or after `concludingGrace` at most; at once when there is none.
    private func afterConclusions(on lanes: [ReaderLane], _ body: @escaping () -> Void) {
        guard !lanes.isEmpty else { return body() }
        let once = OnceFlag()
        let body = QueueBound(body, on: queue)  // runs on the engine queue, once
        let group = DispatchGroup()
        for lane in lanes {
            group.enter()
            lane.async { group.leave() }
        }
        group.notify(queue: queue) { if once.raise() { body.value() } }
        queue.asyncAfter(deadline: .now() + Self.concludingGrace) { if once.raise() { body.value() } }
    }

    /// How long the end of a session waits for a tap being concluded.
    static let concludingGrace: TimeInterval = 2

    /// Streams end quietly when the user ended the session or the single read completed.
    private static func end(_ continuation: AsyncThrowingStream<NFCSessionEvent, any Error>.Continuation, with error: NFCReaderError) {
        switch error.code {
        case .readerSessionInvalidationErrorUserCanceled, .readerSessionInvalidationErrorFirstNDEFTagRead:
            continuation.finish()
        default:
            continuation.finish(throwing: error)
        }
    }

    // MARK: Delegate deliveries and events
    //
    // The order (docs/corenfc.md, "Sessions"): a delegate callback is queued before the events
    // that report the same thing are emitted. A delivery queued before an event reached the
    // streams is committed: leaving a `for await` loop (which ends the session with 200) does not
    // drop it, so the delegate and the stream see the same reads. `invalidate()` called by the
    // app still drops every delivery that has not run yet, as on iOS.

    /// Numbers a delegate callback about to be queued.
    func reserveDelivery() -> Int {
        state.withLock { s in
            s.deliveriesQueued += 1
            return s.deliveriesQueued
        }
    }

    /// True when delivery `number` may still run.
    func mayDeliver(_ number: Int) -> Bool {
        let s = state.withLock { $0 }
        if s.invalidatedByUser { return false }
        if let cutoff = s.streamCutoff { return number <= cutoff }
        return true
    }

    func emit(_ event: NFCSessionEvent) {
        let subscribers = state.withLock { s -> [AsyncThrowingStream<NFCSessionEvent, any Error>.Continuation] in
            if s.heldEvents != nil {
                s.heldEvents?.append(event)
                return []
            }
            s.deliveriesCommitted = s.deliveriesQueued
            return Array(s.subscribers.values)
        }
        for continuation in subscribers { continuation.yield(event) }
    }

    /// Holds events back (a read-only batch: its reports wait for the delegate callback).
    func holdEvents() {
        state.withLock { s in
            if s.heldEvents == nil { s.heldEvents = [] }
        }
    }

    /// Emits the events held since `holdEvents()`, in order.
    func releaseEvents() {
        let held = state.withLock { s -> [NFCSessionEvent] in
            defer { s.heldEvents = nil }
            return s.heldEvents ?? []
        }
        for event in held { emit(event) }
    }

    /// A new stream of this session's events. Cancelling its consumer invalidates the session (200).
    func subscribe() -> AsyncThrowingStream<NFCSessionEvent, any Error> {
        AsyncThrowingStream { continuation in
            let id = UUID()
            let ended: NFCReaderError? = state.withLock { s in
                if s.phase == .invalidated { return s.finalError }
                s.subscribers[id] = continuation
                return nil
            }
            if let ended {
                Self.end(continuation, with: ended)
                return
            }
            continuation.onTermination = { [weak self] termination in
                guard let self else { return }
                self.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
                if case .cancelled = termination {
                    // Deliveries whose events this consumer may have seen still run.
                    self.state.withLock { s in
                        if s.streamCutoff == nil { s.streamCutoff = s.deliveriesCommitted }
                    }
                    self.invalidate(NFCReaderError(.readerSessionInvalidationErrorUserCanceled,
                                                   message: "the task reading the session's events was cancelled"),
                                    byUser: false)
                }
            }
        }
    }
}
