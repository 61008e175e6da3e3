import Foundation
import MQTT
import Synchronization

/// Publishes a JSONL record file to an MQTT broker, QoS 1, in order, from the last acknowledged
/// record on, and keeps that position next to the file (docs/fleet.md).
///
/// The file is the outbox: the forwarder only reads it. A record counts as published once the
/// broker's PUBACK is in; the position (`OutboxPosition`) then moves past it. A lost connection,
/// a broker restart or a killed process delays records, never drops or reorders them: on every
/// reconnect publishing starts again at the first unacknowledged record (at-least-once; the
/// record id lets consumers drop the repeats).
///
/// One thread owns the MQTT client, the reader and the position; `status` and `stop` may be
/// called from any thread.
// @unchecked: the vars below are the forwarding thread's alone; what other threads read is in the `shared` Mutex.
public final class Forwarder: @unchecked Sendable {

    public enum LogLevel: Sendable { case info, warning, error }

    public let configuration: ForwarderConfiguration
    /// Messages for the log, passwords already removed. Set before `start()`.
    public var onLog: @Sendable (LogLevel, String) -> Void = { _, _ in }

    let redact: Redactor
    let shared = Mutex(Shared())
    private let finished = DispatchSemaphore(value: 0)
    private var started = false
    private var lock: ForwarderLock?

    struct Shared {
        var status = ForwarderStatus()
        var acknowledgedOffset: UInt64 = 0
        /// The file being published (the path, or a rotated file being finished).
        var readingPath: String?
        var stopRequested = false
        var drainDeadline: ContinuousClock.Instant?
        /// Retained messages to clear at the stop (a Home Assistant config no longer wanted).
        var retracting: [String] = []
        /// When the backlog last went from empty to not empty (age for records without "time").
        var backlogSince: Date?
    }

    // Thread state: used by the forwarding thread only (here and in Forwarder+Connection/+Outbox).
    var reader: OutboxReader?
    var position = OutboxPosition(device: 0, inode: 0)
    var client: MQTTClient?
    var connected = false
    var connectStartedAt = ContinuousClock.now
    /// Records sent, not yet acknowledged, oldest first; `homeAssistant`: the tap's HA message.
    var inFlight: [(mid: Int32, end: UInt64, sequence: UInt64, sentAt: ContinuousClock.Instant, homeAssistant: [UInt8]?)] = []
    /// Message ids acknowledged ahead of an older record still in flight (at most `maxInFlight`).
    /// Lists, not sets: the first `Set<Int32>` of the process cost the runtime a search of every
    /// conformance record of the binary (`Hashable`), 0.6 M instructions of a station's start.
    var acknowledged: [Int32] = []
    var statusMessage: Int32?
    var announcementMessages: [Int32] = []
    var nextSequence: UInt64 = 1
    var pendingDrop: String?
    var retryDelay: Duration
    var nextAttempt = ContinuousClock.now
    var lastPersist = ContinuousClock.now
    var persistedOffset: UInt64 = 0
    var lastRotationCheck = ContinuousClock.now
    var lastProblem: String?
    var lastFileProblem: String?
    var rotationSeenAt: ContinuousClock.Instant?
    var watcher: FileWatcher?
    /// The connection being made on its helper thread (DNS and TCP may block: docs/fleet.md: bounds).
    var connecting: ConnectJob?
    /// What Home Assistant still has to get (nil without HA), and what of it is on disk.
    var homeAssistant: HomeAssistantDelivery?
    var homeAssistantSaved: [[UInt8]] = []
    var homeAssistantSkipped = 0
    var homeAssistantDroppedLogged = 0

    public init(configuration: ForwarderConfiguration) {
        self.configuration = configuration
        redact = Redactor(url: configuration.url)
        retryDelay = configuration.retryMin
    }

    /// Takes the file (one forwarder per file), checks the CA file, then starts the forwarding
    /// thread (once).
    /// - Throws: `FleetError.locked` when another forwarder publishes the file,
    ///   `FleetError.notOwnFile` when its lock file is not a regular file, `FleetError.badCAFile`.
    public func start() throws {
        guard !started else { return }
        if let caFile = configuration.caFile, configuration.url.secure { try CAFile.validate(caFile) }
        lock = try ForwarderLock(outboxPath: configuration.outboxPath)
        started = true
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "nfctap.fleet.forwarder"
        thread.start()
    }

    /// Stops: keeps publishing for up to `drain` while connected and records are left, then
    /// publishes the retained "offline" status, clears the retained messages of `retracting`
    /// (an empty retained payload), disconnects and saves the position. Blocks until done.
    public func stop(drain: Duration = .zero, retracting: [String] = []) {
        guard started else { return }
        shared.withLock { shared in
            shared.stopRequested = true
            shared.drainDeadline = ContinuousClock.now + drain
            shared.retracting = retracting
        }
        finished.wait()
        finished.signal()
    }

    /// The connection state and backlog now.
    public var status: ForwarderStatus {
        let (base, offset, since, reading) = shared.withLock { shared in
            (shared.status, shared.acknowledgedOffset, shared.backlogSince, shared.readingPath)
        }
        var status = base
        var measured = try? Backlog.measure(path: reading ?? configuration.outboxPath, from: offset)
        if let reading, reading != configuration.outboxPath, let rest = try? Backlog.measure(path: configuration.outboxPath, from: 0) {
            measured?.add(rest)
        }
        if let backlog = measured {
            status.backlogRecords = backlog.records
            status.backlogBytes = backlog.bytes
            if backlog.records > 0 {
                if let time = backlog.oldestTime {
                    status.oldestUnsentAge = max(0, Date().timeIntervalSince(time))
                } else if let since {
                    status.oldestUnsentAge = max(0, Date().timeIntervalSince(since))
                }
            }
            shared.withLock { shared in
                if backlog.records == 0 { shared.backlogSince = nil } else if shared.backlogSince == nil { shared.backlogSince = Date() }
            }
        }
        return status
    }

    func log(_ level: LogLevel, _ message: String) { onLog(level, redact(message)) }

    func setConnection(_ connection: ForwarderStatus.Connection, error: String? = nil) {
        shared.withLock { shared in
            shared.status.connection = connection
            if let error { shared.status.lastError = redact(error) }
        }
    }

    // MARK: The thread

    private func run() {
        loadHomeAssistantHeld()
        while true {
            let (stopping, deadline) = shared.withLock { shared in (shared.stopRequested, shared.drainDeadline) }
            if stopping {
                let drained = inFlight.isEmpty && (reader.map { (try? $0.peekEmpty()) ?? true } ?? true)
                if !connected || drained || ContinuousClock.now >= (deadline ?? .now) { break }
            }
            if reader == nil {
                openOutbox()
                if reader == nil { sleep(for: .milliseconds(250)); continue }
            }
            if client == nil {
                if connecting != nil {
                    awaitConnection()
                    continue
                }
                if ContinuousClock.now < nextAttempt {
                    watcher?.wait(until: min(nextAttempt, ContinuousClock.now + .milliseconds(250)))
                    continue
                }
                connect()
                continue
            }
            if !connected {
                step { try client?.loop(timeoutMilliseconds: 50) }
                if client != nil, !connected, ContinuousClock.now - connectStartedAt > configuration.ackTimeout {
                    drop("no answer (CONNACK) from the broker within \(Self.seconds(configuration.ackTimeout)) s")
                }
                continue
            }
            fillWindow()
            serveHomeAssistant()
            guard let client else { continue }
            let socket = client.socket
            guard socket >= 0 else { drop("the connection closed"); continue }
            // A writer in the middle of an append confirms it within milliseconds: look again soon.
            let timeout: Int32 = reader?.writerBusy == true ? 5 : inFlight.isEmpty ? 250 : 100
            let (readable, writable) = FileWatcher.poll(socket: socket, wantsWrite: client.wantsWrite,
                                                        watcher: watcher, timeoutMilliseconds: timeout)
            step { try client.service(readable: readable, writable: writable) }
            if let first = inFlight.first, ContinuousClock.now - first.sentAt > configuration.ackTimeout {
                drop("no acknowledgement (PUBACK) within \(Self.seconds(configuration.ackTimeout)) s")
            }
            persistIfDue()
            checkRotation()
        }
        shutDown()
    }

    /// Runs one libmosquitto step; a failure or a disconnect event drops the connection.
    func step(_ body: () throws -> Void) {
        do {
            try body()
        } catch let error as MQTTError {
            pendingDrop = pendingDrop ?? describe(error)
        } catch {
            pendingDrop = pendingDrop ?? "\(error)"
        }
        if let reason = pendingDrop {
            pendingDrop = nil
            drop(reason)
        }
    }

    func sleep(for duration: Duration) {
        Thread.sleep(forTimeInterval: Self.seconds(duration))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
