/// Which taps Home Assistant still has to get, and when they may go (docs/fleet.md, "What reaches
/// Home Assistant").
///
/// HA subscribes with a clean session and QoS 0: what the broker delivers while HA is not
/// connected is lost to it, even though the broker acknowledged it to the station. So the station
/// follows HA's birth and last will on `<prefix>/status` (HA's defaults: `online` once HA has
/// subscribed again and its discovery has been quiet for 5 s, `offline` as its will):
/// - `offline`: taps are held until the next birth;
/// - `online` (a birth): the discovery config goes out again, and after `settle` (HA subscribes
///   to a new config's topic within about a second) the held taps go, in order;
/// - no news (a fresh connection: HA may be up all along, or reconnecting after a broker restart):
///   taps go after `settle`, and each stays known for `unconfirmedKeep`. A birth that comes without
///   an `offline` first means HA was not connected: the taps sent earlier than `birthCooldown`
///   before it (HA's own quiet time before its birth) are sent again.
///
/// Pure: the forwarder feeds it events and clock readings, and writes `held` to disk.
struct HomeAssistantDelivery {
    enum State: Equatable { case unknown, online, offline }

    struct Entry: Equatable {
        var payload: [UInt8]
        /// When it was published (nil: not yet, or to be sent again).
        var sentAt: ContinuousClock.Instant?
        /// The message id while the broker has not acknowledged it.
        var mid: Int32?
        var unsent: Bool { sentAt == nil && mid == nil }
    }

    var settle: Duration = .seconds(2)
    /// HA's `DISCOVERY_COOLDOWN` (homeassistant/components/mqtt/client.py): HA publishes its birth
    /// after 5 s without discovery traffic, so what reached the broker in those 5 s reached HA.
    var birthCooldown: Duration = .seconds(5)
    /// How long a tap sent without news is kept for a birth that may follow (HA reconnects every
    /// 10 s after a broker restart, then waits its 5 s cooldown).
    var unconfirmedKeep: Duration = .seconds(60)
    /// Held taps kept at most (HA away for long): the oldest go first, counted in `dropped`.
    var capacity = 10_000

    private(set) var state: State = .unknown
    private(set) var entries: [Entry] = []
    private(set) var sendableAt: ContinuousClock.Instant
    /// Held taps dropped for `capacity`, since start.
    private(set) var dropped = 0
    /// Set when the taps not yet sent changed: the forwarder rewrites its held file and clears it.
    var heldChanged = false

    init(held: [[UInt8]] = [], now: ContinuousClock.Instant = .now) {
        entries = held.map { Entry(payload: $0) }
        sendableAt = now + settle
    }

    /// The taps HA has not got for sure and that a restart must not lose (held, or sent and not
    /// acknowledged).
    var held: [[UInt8]] { entries.filter { $0.sentAt == nil || $0.mid != nil }.map(\.payload) }

    /// A new connection: state unknown (a birth may have gone by while the station was away).
    mutating func connected(now: ContinuousClock.Instant) {
        state = .unknown
        sendableAt = now + settle
    }

    /// The connection is gone. What was sent and acknowledged reached HA if HA was connected
    /// (a broker restart drops HA too, after that); what was in flight is sent again.
    mutating func disconnected() {
        entries.removeAll { $0.mid == nil && $0.sentAt != nil }
        for index in entries.indices where entries[index].mid != nil {
            entries[index].mid = nil
            entries[index].sentAt = nil
        }
        heldChanged = true
    }

    /// A tap the broker confirmed on the records topic, as HA's payload.
    mutating func add(_ payload: [UInt8]) {
        entries.append(Entry(payload: payload))
        if entries.count > capacity, let index = entries.firstIndex(where: { $0.mid == nil }) {
            entries.remove(at: index)
            dropped += 1
        }
        heldChanged = true
    }

    /// A message on HA's status topic. Returns true when the discovery config is to be published
    /// again (a birth).
    mutating func status(_ payload: [UInt8], now: ContinuousClock.Instant) -> Bool {
        switch String(decoding: payload, as: UTF8.self) {
        case "online":
            if state != .online {
                // Acknowledged without news: sent again when it went out before HA's quiet time.
                let cutoff = now - birthCooldown
                entries.removeAll { $0.mid == nil && $0.sentAt.map { $0 >= cutoff } == true }
                for index in entries.indices where entries[index].mid == nil { entries[index].sentAt = nil }
            }
            state = .online
            sendableAt = now + settle
            heldChanged = true
            return true
        case "offline":
            // HA was connected until now: what it was sent and the broker acknowledged, it got.
            entries.removeAll { $0.mid == nil && $0.sentAt != nil }
            state = .offline
            heldChanged = true
            return false
        default:
            return false
        }
    }

    /// The indices of the taps to publish now, oldest first.
    mutating func due(now: ContinuousClock.Instant) -> [Int] {
        entries.removeAll { $0.mid == nil && $0.sentAt.map { now - $0 > unconfirmedKeep } == true }
        guard state != .offline, now >= sendableAt else { return [] }
        return entries.indices.filter { entries[$0].unsent }
    }

    mutating func sent(_ index: Int, mid: Int32, now: ContinuousClock.Instant) {
        entries[index].mid = mid
        entries[index].sentAt = now
    }

    /// A PUBACK; false when `mid` is not one of HA's taps. Online, the tap is done; otherwise it is
    /// kept for a birth that may follow (or, after an `offline`, sent again after the birth).
    mutating func acknowledged(_ mid: Int32) -> Bool {
        guard let index = entries.firstIndex(where: { $0.mid == mid }) else { return false }
        switch state {
        case .online: entries.remove(at: index)
        case .unknown: entries[index].mid = nil
        case .offline:
            entries[index].mid = nil
            entries[index].sentAt = nil
        }
        heldChanged = true
        return true
    }
}
