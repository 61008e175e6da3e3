import Foundation
import MQTT

/// The forwarder's MQTT side: connecting, publishing the window of records, acknowledgements,
/// losing the connection, the retained status. Runs on the forwarding thread only.
extension Forwarder {
    func connect() {
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

    func handle(_ event: MQTTClient.Event, online: [UInt8]) {
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
                shared.withLock { shared in
                    shared.acknowledgedOffset = offset
                    shared.status.acknowledgedRecords = records
                    shared.status.publishedSinceStart += advanced
                }
            }
        case .message, .subscribed:
            break
        }
    }

    func fillWindow() {
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
    func drop(_ reason: String) {
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

    func shutDown() {
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

    func statusPayload(state: String) -> [UInt8] {
        let object: [String: String] = [
            "state": state, "clientId": configuration.clientID, "machineId": configuration.machineID,
            "topic": configuration.topic,
        ]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }
}
