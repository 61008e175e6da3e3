import Dispatch
import ReaderCore
import Synchronization
import Testing

/// `ReaderLane.isCurrent` (what `QueueBound` checks): true on the lane's own thread only, not on
/// another lane's thread, a dispatch queue or the test's thread (docs/architecture.md, "Threads
/// and queues").
@Suite struct ReaderLaneCurrentTests {
    @Test func trueOnItsOwnThreadOnly() {
        let lane = ReaderLane.lane(for: ReaderInfo(name: "Lane identity reader A", backend: .pcsc))
        let other = ReaderLane.lane(for: ReaderInfo(name: "Lane identity reader B", backend: .pcsc))
        let seen = Mutex<[String: Bool]>([:])
        let done = DispatchSemaphore(value: 0)
        lane.async {
            seen.withLock { $0["own"] = lane.isCurrent; $0["other from own"] = other.isCurrent }
            done.signal()
        }
        other.async {
            seen.withLock { $0["own from other"] = lane.isCurrent; $0["other"] = other.isCurrent }
            done.signal()
        }
        DispatchQueue(label: "nfctap.test.lane-identity").async {
            seen.withLock { $0["queue"] = lane.isCurrent }
            done.signal()
        }
        for _ in 0..<3 { #expect(done.wait(timeout: .now() + 5) == .success) }
        #expect(seen.withLock { $0 } == ["own": true, "other from own": false, "own from other": false, "other": true, "queue": false])
        #expect(!lane.isCurrent && !other.isCurrent)
    }
}
