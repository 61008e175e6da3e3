import Foundation
import Testing
@testable import Fleet

/// When taps go to Home Assistant: HA's birth and will, a broker restart, HA's quiet time before
/// its birth, held taps across restarts (docs/fleet.md, "What reaches Home Assistant").
@Suite struct HomeAssistantDeliveryTests {
    let start = ContinuousClock.now
    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1000)) }
    static let online = Array("online".utf8), offline = Array("offline".utf8)

    /// Publishes what is due at `seconds`, acknowledging each at once; the payloads sent.
    func send(_ delivery: inout HomeAssistantDelivery, at seconds: Double, acknowledge: Bool = true) -> [String] {
        var sent: [String] = []
        for index in delivery.due(now: at(seconds)) {
            let mid = Int32(100 + index + sent.count * 1000 + Int(seconds * 10))
            sent.append(String(decoding: delivery.entries[index].payload, as: UTF8.self))
            delivery.sent(index, mid: mid, now: at(seconds))
        }
        if acknowledge {
            for mid in delivery.entries.compactMap(\.mid) { _ = delivery.acknowledged(mid) }
        }
        return sent
    }

    @Test("a new connection waits `settle` (HA subscribes to a new config's topic), then sends; no birth follows: nothing again")
    func newStation() {
        var delivery = HomeAssistantDelivery(now: start)
        delivery.connected(now: at(0))
        delivery.add(Array("t1".utf8))
        #expect(send(&delivery, at: 1).isEmpty)
        #expect(send(&delivery, at: 2.1) == ["t1"])
        #expect(send(&delivery, at: 10).isEmpty)
        // Kept without news for a birth that may follow, then forgotten.
        #expect(delivery.entries.count == 1)
        _ = delivery.due(now: at(70))
        #expect(delivery.entries.isEmpty)
    }

    @Test("HA offline: taps are held; its birth re-announces, and after settle they go once, in order")
    func homeAssistantRestart() {
        var delivery = HomeAssistantDelivery(now: start)
        delivery.connected(now: at(0))
        delivery.add(Array("t1".utf8))
        #expect(send(&delivery, at: 3) == ["t1"])
        #expect(delivery.status(Self.offline, now: at(4)) == false)
        #expect(delivery.state == .offline)
        delivery.add(Array("t2".utf8))
        delivery.add(Array("t3".utf8))
        #expect(send(&delivery, at: 10).isEmpty)
        #expect(delivery.held.map { String(decoding: $0, as: UTF8.self) } == ["t2", "t3"])
        #expect(delivery.status(Self.online, now: at(30)) == true)
        #expect(send(&delivery, at: 31).isEmpty)
        // t1 reached HA before its will: not sent again.
        #expect(send(&delivery, at: 32.1) == ["t2", "t3"])
        #expect(delivery.entries.isEmpty)
        #expect(send(&delivery, at: 40).isEmpty)
    }

    @Test("broker restart: what went out before HA reconnected is sent again at its birth; what went out in HA's quiet time is not")
    func brokerRestart() {
        var delivery = HomeAssistantDelivery(now: start)
        delivery.connected(now: at(0))
        #expect(delivery.status(Self.online, now: at(1)) == true)
        delivery.add(Array("before".utf8))
        #expect(send(&delivery, at: 3.5) == ["before"])
        #expect(delivery.entries.isEmpty, "online: done once acknowledged")
        // The broker goes; the station reconnects first and sends t1; HA's birth comes 12 s later.
        delivery.disconnected()
        delivery.connected(now: at(20))
        delivery.add(Array("t1".utf8))
        #expect(send(&delivery, at: 22.5) == ["t1"])
        delivery.add(Array("t2".utf8))
        #expect(send(&delivery, at: 31) == ["t2"])  // within HA's 5 s quiet time before its birth at 34.5
        #expect(delivery.status(Self.online, now: at(34.5)) == true)
        #expect(send(&delivery, at: 36.6) == ["t1"])
        #expect(send(&delivery, at: 50).isEmpty)
    }

    @Test("a tap in flight when the connection drops is sent again; one acknowledged without news is not kept past the drop")
    func drop() {
        var delivery = HomeAssistantDelivery(now: start)
        delivery.connected(now: at(0))
        delivery.add(Array("acked".utf8))
        #expect(send(&delivery, at: 2.5) == ["acked"])
        delivery.add(Array("flying".utf8))
        #expect(send(&delivery, at: 3, acknowledge: false) == ["flying"])
        #expect(delivery.held.map { String(decoding: $0, as: UTF8.self) } == ["flying"], "a restart must not lose it")
        delivery.disconnected()
        #expect(delivery.entries.map { String(decoding: $0.payload, as: UTF8.self) } == ["flying"])
        delivery.connected(now: at(5))
        #expect(send(&delivery, at: 7.5) == ["flying"])
    }

    @Test("held taps from the file go after settle; unknown status payloads change nothing; the oldest go past capacity")
    func heldAndCapacity() {
        var delivery = HomeAssistantDelivery(held: [Array("old".utf8)], now: start)
        #expect(delivery.status(Array("ONLINE ".utf8), now: at(0)) == false)
        #expect(delivery.state == .unknown)
        delivery.connected(now: at(0))
        #expect(send(&delivery, at: 2.1) == ["old"])
        delivery.capacity = 3
        _ = delivery.status(Self.offline, now: at(3))
        for n in 1...5 { delivery.add(Array("h\(n)".utf8)) }
        #expect(delivery.dropped == 2)
        #expect(delivery.held.map { String(decoding: $0, as: UTF8.self) } == ["h3", "h4", "h5"])
    }
}
