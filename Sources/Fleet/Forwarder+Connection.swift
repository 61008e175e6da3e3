import Foundation
import MQTT
import RecordOutput

/// The forwarder's MQTT side: connecting, publishing the window of records, acknowledgements,
/// losing the connection, the retained status. Runs on the forwarding thread only.
extension Forwarder {
    /// Starts a connection: the client is made here, and `mosquitto_connect_async` (which
    /// resolves the host name and opens the TCP connection, and can block in DNS for many
    /// seconds) runs on a helper thread that `awaitConnection` polls, so a stop is never held up
    /// by it. At most one helper runs; one abandoned at a stop ends by itself.
    func connect() {
        let url = configuration.url
        let options = MQTTClientOptions(
            clientID: configuration.clientID, cleanSession: true, username: url.username, password: url.password,
            tls: url.secure ? .init(caFile: configuration.caFile) : nil,
            will: .init(topic: configuration.statusTopic, payload: statusPayload(state: "offline"), qos: 1, retain: true),
            keepAliveSeconds: configuration.keepAliveSeconds)
        do {
            let job = ConnectJob(client: try MQTTClient(options: options), host: url.host, port: url.port)
            connecting = job
            connectStartedAt = .now
            setConnection(.connecting)
            job.start()
        } catch {
            drop(describe(error))
        }
    }

    /// Waits a little for the helper; takes the client once it connected, drops when it failed or
    /// took longer than the ack timeout.
    func awaitConnection() {
        guard let job = connecting else { return }
        guard let result = job.wait(milliseconds: 50) else {
            if !job.overdue, ContinuousClock.now - connectStartedAt > configuration.ackTimeout {
                job.overdue = true
                drop("no connection to \(configuration.url.host) within \(Self.seconds(configuration.ackTimeout)) s (name resolution or TCP)")
                nextAttempt = .now + retryDelay
            }
            return
        }
        connecting = nil
        if job.overdue { return }  // already dropped; the next attempt starts afresh
        switch result {
        case .success(let fresh):
            let online = statusPayload(state: "online")
            fresh.onEvent = { [unowned self] event in handle(event, online: online) }
            client = fresh
            connectStartedAt = .now
        case .failure(let error):
            drop(describe(error))
        }
    }

    /// An error's text for the log, naming the CA file when TLS failed.
    func describe(_ error: any Error) -> String {
        if let error = error as? MQTTError, error.kind == .tls, let caFile = configuration.caFile {
            return "\(error) (CA file \(caFile))"
        }
        return "\(error)"
    }

    func handle(_ event: MQTTClient.Event, online: [UInt8]) {
        switch event {
        case let .connected(code):
            guard code == 0 else {
                pendingDrop = MQTTError.refused(connack: code).description
                return
            }
            guard client != nil else { return }
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
            for (topic, payload) in configuration.announcements {
                if let mid = try? client?.publish(topic: topic, payload: payload, qos: 1, retain: true) { announcementMessages.append(mid) }
            }
            homeAssistantConnected()
        case let .disconnected(code):
            pendingDrop = pendingDrop ?? (code == 0 ? "disconnected" : MQTTError(code: code, operation: "connection").description)
        case let .published(mid):
            if mid == statusMessage { statusMessage = nil; return }
            if announcementMessages.removeOne(mid) { return }
            if homeAssistant?.acknowledged(mid) == true { saveHomeAssistantHeld(); return }
            if !acknowledged.contains(mid) { acknowledged.append(mid) }
            var advanced: UInt64 = 0
            while let first = inFlight.first, acknowledged.removeOne(first.mid) {
                position.offset = first.end
                position.records = first.sequence
                inFlight.removeFirst()
                advanced += 1
                if let payload = first.homeAssistant { homeAssistant?.add(payload) }
            }
            saveHomeAssistantHeld()
            if advanced > 0 {
                let (offset, records) = (position.offset, position.records)
                shared.withLock { shared in
                    shared.acknowledgedOffset = offset
                    shared.status.acknowledgedRecords = records
                    shared.status.publishedSinceStart += advanced
                }
            }
        case let .message(topic, payload):
            homeAssistantMessage(topic: topic, payload: payload)
        case .subscribed:
            break
        }
    }

    func fillWindow() {
        guard let reader, let client, connected else { return }
        while inFlight.count < configuration.maxInFlight {
            let next: OutboxRecord?
            do {
                next = try reader.next()
            } catch {
                log(.error, "\(error)")
                return
            }
            guard let record = next else { return }
            let sequence = nextSequence
            let id = RecordID.make(stationID: configuration.stationID, fileID: position.fileID, sequence: sequence)
            let payload: [UInt8]
            var haPayload: [UInt8]?
            if let length = record.oversizedLength {
                log(.error, "\(reader.path): record \(sequence) is \(length) bytes, over the \(OutboxReader.maxRecordBytes)-byte limit: not published (its id \(id) goes out as {\"oversizedRecord\": \(length)})")
                payload = RecordID.oversizedPayload(id: id, length: length)
            } else {
                payload = RecordID.payload(record: record.bytes, id: id)
                haPayload = homeAssistantPayload(record: record.bytes, id: id)
            }
            do {
                let mid = try client.publish(topic: configuration.topic, payload: payload, qos: 1)
                inFlight.append((mid, record.end, sequence, .now, haPayload))
                nextSequence += 1
            } catch {
                pendingDrop = describe(error)
                step {}
                return
            }
        }
    }

    /// Forgets the connection and what was in flight; the next attempt starts at the first
    /// unacknowledged record.
    func drop(_ reason: String) {
        let wasConnected = connected
        client = nil
        connected = false
        inFlight.removeAll()
        acknowledged.removeAll()
        statusMessage = nil
        announcementMessages.removeAll()
        homeAssistant?.disconnected()
        saveHomeAssistantHeld()
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

    func shutDown() {
        persist()
        if let client, connected {
            let offline = statusPayload(state: "offline")
            var waiting: [Int32] = []
            if let mid = try? client.publish(topic: configuration.statusTopic, payload: offline, qos: 1, retain: true) { waiting.append(mid) }
            for topic in shared.withLock({ $0.retracting }) {
                if let mid = try? client.publish(topic: topic, payload: [], qos: 1, retain: true) { waiting.append(mid) }
            }
            client.onEvent = { event in if case let .published(mid) = event { waiting.removeAll { $0 == mid } } }
            let until = ContinuousClock.now + .milliseconds(500)
            while !waiting.isEmpty, ContinuousClock.now < until {
                do { try client.loop(timeoutMilliseconds: 20) } catch { break }
            }
            client.disconnect()
            _ = try? client.loop(timeoutMilliseconds: 10)
        }
        client = nil
        connected = false
        persist()
        setConnection(.stopped)
    }

    /// `{"clientId", "state", "stationId", "topic"}`, the retained status (docs/fleet.md).
    func statusPayload(state: String) -> [UInt8] {
        let status: JSONValue = .object([("clientId", .string(configuration.clientID)), ("state", .string(state)),
                                         ("stationId", .string(configuration.stationID)), ("topic", .string(configuration.topic))])
        return Array(status.jsonText.utf8)
    }
}

private extension Array where Element == Int32 {
    /// Removes the first `value`; whether there was one.
    mutating func removeOne(_ value: Int32) -> Bool {
        guard let index = firstIndex(of: value) else { return false }
        remove(at: index)
        return true
    }
}
