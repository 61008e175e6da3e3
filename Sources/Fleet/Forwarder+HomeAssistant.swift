import Foundation
import MQTT
import SystemPackage

/// The forwarder's Home Assistant side (docs/fleet.md, "What reaches Home Assistant"): each tap
/// the broker confirmed on the records topic also goes to the station's HA topic, when
/// `HomeAssistantDelivery` says HA can get it. Taps held for HA are kept in
/// `<file>.homeassistant-held` across restarts. Runs on the forwarding thread only.
extension Forwarder {
    /// Largest held file read back (10,000 taps of HA's small payload fit many times over).
    static let maxHeldFileBytes = 16 << 20

    /// Reads the held taps at the thread's start.
    func loadHomeAssistantHeld() {
        guard configuration.homeAssistant != nil else { return }
        let path = configuration.homeAssistantHeldPath
        var held: [[UInt8]] = []
        do {
            if let (fd, info) = try SafeFile.openForReading(path) {
                defer { close(fd) }
                let size = min(Int(info.st_size), Self.maxHeldFileBytes)
                var bytes = [UInt8](repeating: 0, count: size)
                let count = try bytes.withUnsafeMutableBytes { try FileDescriptor(rawValue: fd).read(fromAbsoluteOffset: 0, into: $0) }
                // One HA payload per line; a line cut by a crash of an older writer, or anything
                // that is not a JSON object, is skipped.
                for line in bytes[..<count].split(separator: UInt8(ascii: "\n")) {
                    if (try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any] { held.append(Array(line)) }
                }
                if !held.isEmpty { log(.info, "Home Assistant: \(held.count) taps held from before, sent once HA can get them") }
            }
        } catch {
            log(.error, "\(error)")
        }
        homeAssistant = HomeAssistantDelivery(held: held)
    }

    /// A new connection: listen to HA's birth and will.
    func homeAssistantConnected() {
        guard let discovery = configuration.homeAssistant, let client else { return }
        homeAssistant?.connected(now: .now)
        do {
            try client.subscribe(discovery.statusTopic, qos: 1)
        } catch {
            pendingDrop = describe(error)
        }
    }

    /// A message on a subscribed topic: HA's status. A birth publishes the discovery config again.
    func homeAssistantMessage(topic: String, payload: [UInt8]) {
        guard let discovery = configuration.homeAssistant, topic == discovery.statusTopic, let client,
              var delivery = homeAssistant else { return }
        let birth = delivery.status(payload, now: .now)
        homeAssistant = delivery
        if birth {
            log(.info, "Home Assistant is online: announcing the station again; held taps follow in \(Self.seconds(delivery.settle)) s")
            for (topic, payload) in configuration.announcements {
                if let mid = try? client.publish(topic: topic, payload: payload, qos: 1, retain: true) { announcementMessages.append(mid) }
            }
        } else if delivery.state == .offline {
            log(.info, "Home Assistant is offline: taps for it are held until it is back")
        }
        saveHomeAssistantHeld()
    }

    /// The HA message for a record, nil for none (no HA, or a record without a tag id: counted,
    /// and said once).
    func homeAssistantPayload(record: ArraySlice<UInt8>, id: String) -> [UInt8]? {
        guard let discovery = configuration.homeAssistant else { return nil }
        if let payload = discovery.payload(record: record, id: id) { return payload }
        homeAssistantSkipped += 1
        if homeAssistantSkipped == 1 {
            log(.warning, "Home Assistant: record \(id) has no tag id (\"haTag\" or \"\(discovery.field)\" null, empty or missing): such records are not sent to HA (counted in the status line)")
        }
        shared.withLock { $0.status.homeAssistantSkipped = homeAssistantSkipped }
        return nil
    }

    /// Publishes the taps that are due to HA's topic.
    func serveHomeAssistant() {
        guard let client, connected, var delivery = homeAssistant else { return }
        let topic = Topic.homeAssistant(forRecords: configuration.topic)
        let now = ContinuousClock.now
        for index in delivery.due(now: now) {
            guard let mid = try? client.publish(topic: topic, payload: delivery.entries[index].payload, qos: 1) else { break }
            delivery.sent(index, mid: mid, now: now)
        }
        let dropped = delivery.dropped
        homeAssistant = delivery
        if dropped > homeAssistantDroppedLogged {
            log(.warning, "Home Assistant: more than \(delivery.capacity) taps held for it: the oldest \(dropped) dropped")
            homeAssistantDroppedLogged = dropped
        }
        saveHomeAssistantHeld()
    }

    /// Rewrites the held file when what HA has not surely got changed; removes it when empty.
    func saveHomeAssistantHeld() {
        guard var delivery = homeAssistant, delivery.heldChanged else { return }
        delivery.heldChanged = false
        homeAssistant = delivery
        let held = delivery.held
        shared.withLock { $0.status.homeAssistantHeld = held.count }
        let path = configuration.homeAssistantHeldPath
        guard held != homeAssistantSaved else { return }
        do {
            if held.isEmpty {
                if unlink(path) != 0, errno != ENOENT { throw FleetError.io(operation: "remove", path: path, errno: errno) }
            } else {
                try SafeFile.replace(path, with: held.flatMap { $0 + [UInt8(ascii: "\n")] })
            }
            homeAssistantSaved = held
        } catch {
            log(.error, "\(error)")
        }
    }
}
