import Foundation
import MQTT

/// Publishes a JSONL record file to an MQTT broker, QoS 1, in order, from the last acknowledged
/// record on, and keeps that position next to the file (README "Fleet").
///
/// The file is the outbox: the forwarder only reads it. A record counts as published once the
/// broker's PUBACK is in; the position (`OutboxPosition`) then moves past it. A lost connection,
/// a broker restart or a killed process delays records, never drops or reorders them: on every
/// reconnect publishing starts again at the first unacknowledged record (at-least-once; the
/// record id lets consumers drop the repeats).
///
/// One thread owns the MQTT client, the reader and the position; `status` and `stop` may be
/// called from any thread.
public final class Forwarder: @unchecked Sendable {
    // @unchecked: the thread's state is touched only by the thread; `shared` is behind `lock`.

    public enum LogLevel: Sendable { case info, warning, error }

    public let configuration: ForwarderConfiguration
    /// Messages for the log, passwords already removed. Set before `start()`.
    public var onLog: @Sendable (LogLevel, String) -> Void = { _, _ in }

    private let redact: Redactor
    private let lock = NSLock()
    private var shared = Shared()
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    private struct Shared {
        var status = ForwarderStatus()
        var acknowledgedOffset: UInt64 = 0
        var stopRequested = false
        var drainDeadline: ContinuousClock.Instant?
        /// When the backlog last went from empty to not empty (age for records without "time").
        var backlogSince: Date?
    }

    // Thread state.
    private var reader: OutboxReader?
    private var position = OutboxPosition(device: 0, inode: 0)
    private var client: MQTTClient?
    private var connected = false
    private var connectStartedAt = ContinuousClock.now
    private var inFlight: [(mid: Int32, end: UInt64, sequence: UInt64, sentAt: ContinuousClock.Instant)] = []
    private var acknowledged: Set<Int32> = []
    private var statusMessage: Int32?
    private var nextSequence: UInt64 = 1
    private var pendingDrop: String?
    private var retryDelay: Duration
    private var nextAttempt = ContinuousClock.now
    private var lastPersist = ContinuousClock.now
    private var persistedOffset: UInt64 = 0
    private var lastRotationCheck = ContinuousClock.now
    private var lastProblem: String?
    private var watcher: FileWatcher?

    public init(configuration: ForwarderConfiguration) {
        self.configuration = configuration
        redact = Redactor(url: configuration.url)
        retryDelay = configuration.retryMin
    }

    /// Starts the forwarding thread (once).
    public func start() {
        guard !started else { return }
        started = true
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "nfctap.fleet.forwarder"
        thread.start()
    }

    /// Stops: keeps publishing for up to `drain` while connected and records are left, then
    /// publishes the retained "offline" status, disconnects and saves the position. Blocks until done.
    public func stop(drain: Duration = .zero) {
        guard started else { return }
        lock.withLock {
            shared.stopRequested = true
            shared.drainDeadline = ContinuousClock.now + drain
        }
        finished.wait()
        finished.signal()
    }

    /// The connection state and backlog now.
    public var status: ForwarderStatus {
        let (base, offset, since) = lock.withLock { (shared.status, shared.acknowledgedOffset, shared.backlogSince) }
        var status = base
        if let backlog = try? Backlog.measure(path: configuration.outboxPath, from: offset) {
            status.backlogRecords = backlog.records
            status.backlogBytes = backlog.bytes
            if backlog.records > 0 {
                if let time = backlog.oldestTime {
                    status.oldestUnsentAge = max(0, Date().timeIntervalSince(time))
                } else if let since {
                    status.oldestUnsentAge = max(0, Date().timeIntervalSince(since))
                }
            }
            lock.withLock {
                if backlog.records == 0 { shared.backlogSince = nil } else if shared.backlogSince == nil { shared.backlogSince = Date() }
            }
        }
        return status
    }

    private func log(_ level: LogLevel, _ message: String) { onLog(level, redact(message)) }

    private func setConnection(_ connection: ForwarderStatus.Connection, error: String? = nil) {
        lock.withLock {
            shared.status.connection = connection
            if let error { shared.status.lastError = redact(error) }
        }
    }

    // MARK: The thread

    private func run() {
        while true {
            let (stopping, deadline) = lock.withLock { (shared.stopRequested, shared.drainDeadline) }
            if stopping {
                let drained = inFlight.isEmpty && (reader.map { (try? $0.peekEmpty()) ?? true } ?? true)
                if !connected || drained || ContinuousClock.now >= (deadline ?? .now) { break }
            }
            if reader == nil {
                openOutbox()
                if reader == nil { sleep(for: .milliseconds(250)); continue }
            }
            if client == nil {
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
            guard let client else { continue }
            let socket = client.socket
            guard socket >= 0 else { drop("the connection closed"); continue }
            let timeout: Int32 = inFlight.isEmpty ? 250 : 100
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
    private func step(_ body: () throws -> Void) {
        do {
            try body()
        } catch let error as MQTTError {
            pendingDrop = pendingDrop ?? error.description
        } catch {
            pendingDrop = pendingDrop ?? "\(error)"
        }
        if let reason = pendingDrop {
            pendingDrop = nil
            drop(reason)
        }
    }

    private func openOutbox() {
        let path = configuration.outboxPath
        guard FileManager.default.fileExists(atPath: path) else {
            setConnection(.waitingForFile)
            return
        }
        do {
            let fresh = try OutboxReader(path: path)
            var saved = try OutboxPosition.load(path: configuration.positionPath)
            if let old = saved, old.inode != fresh.inode || old.offset > fresh.size {
                log(.warning, "\(path) is not the file \(configuration.positionPath) was kept for (replaced or rotated): publishing it from its start")
                saved = nil
            }
            let position = saved ?? OutboxPosition(device: fresh.device, inode: fresh.inode)
            if saved == nil { try position.save(path: configuration.positionPath) }
            fresh.rewind(to: position.offset)
            adopt(reader: fresh, position: position)
            watcher = FileWatcher(path: path)
        } catch {
            log(.error, "\(error)")
            setConnection(.waitingForFile, error: "\(error)")
            sleep(for: .seconds(1))
        }
    }

    private func adopt(reader: OutboxReader, position: OutboxPosition) {
        self.reader = reader
        self.position = position
        persistedOffset = position.offset
        nextSequence = position.records + 1
        lock.withLock {
            shared.acknowledgedOffset = position.offset
            shared.status.acknowledgedRecords = position.records
        }
    }

    private func connect() {
        let url = configuration.url
        let online = statusPayload(state: "online")
        let options = MQTTClientOptions(
            clientID: configuration.clientID, cleanSession: true, username: url.username, password: url.password,
            tls: url.secure ? .init(caFile: configuration.caFile) : nil,
            will: .init(topic: configuration.statusTopic, payload: statusPayload(state: "offline"), qos: 1, retain: true),
            keepAliveSeconds: configuration.keepAliveSeconds)
        do {
            let fresh = try MQTTClient(options: options)
            fresh.onEvent = { [unowned self] event in handle(event, online: online) }
            client = fresh
            connectStartedAt = .now
            setConnection(.connecting)
            try fresh.connect(host: url.host, port: url.port)
        } catch {
            drop("\(error)")
        }
    }

    private func handle(_ event: MQTTClient.Event, online: [UInt8]) {
        switch event {
        case let .connected(code):
            guard code == 0 else {
                pendingDrop = MQTTError.refused(connack: code).description
                return
            }
            connected = true
            retryDelay = configuration.retryMin
            setConnection(.connected)
            if lastProblem != nil {
                log(.info, "MQTT: connected again to \(configuration.url.redacted) as \(configuration.clientID)")
            } else {
                log(.info, "MQTT: connected to \(configuration.url.redacted) as \(configuration.clientID), records to \(configuration.topic)")
            }
            lastProblem = nil
            statusMessage = try? client?.publish(topic: configuration.statusTopic, payload: online, qos: 1, retain: true)
        case let .disconnected(code):
            pendingDrop = pendingDrop ?? (code == 0 ? "disconnected" : MQTTError(code: code, operation: "connection").description)
        case let .published(mid):
            if mid == statusMessage { statusMessage = nil; return }
            acknowledged.insert(mid)
            var advanced: UInt64 = 0
            while let first = inFlight.first, acknowledged.remove(first.mid) != nil {
                position.offset = first.end
                position.records = first.sequence
                inFlight.removeFirst()
                advanced += 1
            }
            if advanced > 0 {
                let (offset, records) = (position.offset, position.records)
                lock.withLock {
                    shared.acknowledgedOffset = offset
                    shared.status.acknowledgedRecords = records
                    shared.status.publishedSinceStart += advanced
                }
            }
        case .message, .subscribed:
            break
        }
    }

    private func fillWindow() {
        guard let reader, let client, connected else { return }
        while inFlight.count < configuration.maxInFlight {
            let next: (record: ArraySlice<UInt8>, end: UInt64)?
            do {
                next = try reader.next()
            } catch {
                log(.error, "\(error)")
                return
            }
            guard let (record, end) = next else { return }
            let sequence = nextSequence
            let id = RecordID.make(machineID: configuration.machineID, fileID: position.fileID, sequence: sequence)
            do {
                let mid = try client.publish(topic: configuration.topic, payload: RecordID.payload(record: record, id: id), qos: 1)
                inFlight.append((mid, end, sequence, .now))
                nextSequence += 1
            } catch {
                pendingDrop = "\(error)"
                step {}
                return
            }
        }
    }

    /// Forgets the connection and what was in flight; the next attempt starts at the first
    /// unacknowledged record.
    private func drop(_ reason: String) {
        let wasConnected = connected
        client = nil
        connected = false
        inFlight.removeAll()
        acknowledged.removeAll()
        statusMessage = nil
        if let reader { reader.rewind(to: position.offset) }
        nextSequence = position.records + 1
        nextAttempt = .now + retryDelay
        let reason = redact(reason)
        if wasConnected || lastProblem != reason {
            log(.warning, "MQTT: \(wasConnected ? "connection to" : "cannot connect to") \(configuration.url.redacted) \(wasConnected ? "lost" : "failed"): \(reason); records wait in \(configuration.outboxPath), retrying")
        }
        lastProblem = reason
        retryDelay = min(retryDelay * 2, configuration.retryMax)
        setConnection(.disconnected, error: reason)
        persist()
    }

    private func persistIfDue() {
        if position.offset != persistedOffset, ContinuousClock.now - lastPersist >= configuration.persistInterval { persist() }
    }

    private func persist() {
        guard reader != nil, position.offset != persistedOffset else { return }
        do {
            try position.save(path: configuration.positionPath)
            persistedOffset = position.offset
            lastPersist = .now
        } catch {
            log(.error, "\(error)")
        }
    }

    /// At the end of the file with nothing in flight: if another file now has the path (rotated),
    /// finish with this one and publish the new one from its start.
    private func checkRotation() {
        guard inFlight.isEmpty, let reader, ContinuousClock.now - lastRotationCheck > .seconds(1) else { return }
        lastRotationCheck = .now
        var st = stat()
        guard stat(configuration.outboxPath, &st) == 0 else { return }
        let size = reader.size
        if UInt64(st.st_ino) != reader.inode || UInt64(st.st_dev) != reader.device {
            guard (try? reader.peekEmpty()) ?? true else { return }
            persist()
            log(.info, "\(configuration.outboxPath) was replaced (rotated): publishing the new file from its start")
            self.reader = nil
            try? FileManager.default.removeItem(atPath: configuration.positionPath)
            openOutbox()
        } else if size < position.offset {
            log(.warning, "\(configuration.outboxPath) shrank below the published position: publishing it again from its start with new record ids")
            self.reader = nil
            try? FileManager.default.removeItem(atPath: configuration.positionPath)
            openOutbox()
        }
    }

    private func shutDown() {
        persist()
        if let client, connected {
            var done = false
            let offline = statusPayload(state: "offline")
            if let mid = try? client.publish(topic: configuration.statusTopic, payload: offline, qos: 1, retain: true) {
                statusMessage = mid
                let until = ContinuousClock.now + .milliseconds(500)
                while !done, ContinuousClock.now < until {
                    do { try client.loop(timeoutMilliseconds: 20) } catch { break }
                    done = statusMessage == nil
                }
            }
            client.disconnect()
            _ = try? client.loop(timeoutMilliseconds: 10)
        }
        client = nil
        connected = false
        persist()
        setConnection(.stopped)
    }

    private func statusPayload(state: String) -> [UInt8] {
        let object: [String: String] = [
            "state": state, "clientId": configuration.clientID, "machineId": configuration.machineID,
            "topic": configuration.topic,
        ]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    private func sleep(for duration: Duration) {
        Thread.sleep(forTimeInterval: Self.seconds(duration))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
