import Dispatch
import ReaderCore
import Testing

/// The thread rule `QueueBound` checks (docs/architecture.md, "Threads and queues"): its value is
/// reached in the owning queue or reader lane, and anywhere else the process traps, in release
/// builds too.
@Suite("QueueBound: state bound to a queue or a reader lane")
struct QueueBoundTests {
    static let reader = ReaderInfo(name: "QueueBound test reader", backend: .pcsc)

    @Test("on its queue the value is read and changed")
    func onQueue() {
        let queue = DispatchQueue(label: "nfctap.test.bound")
        let bound = QueueBound(sending: [1], to: queue)
        let seen = queue.sync { () -> [Int] in
            bound.value.append(2)
            return bound.value
        }
        #expect(seen == [1, 2])
    }

    @Test("on its lane the value is read and changed; async runs there after earlier work")
    func onLane() {
        let lane = ReaderLane.lane(for: Self.reader)
        let bound = QueueBound(sending: [1], to: lane)
        let done = DispatchSemaphore(value: 0)
        lane.async {
            bound.value.append(2)
        }
        bound.async { value in
            precondition(value == [1, 2])
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(!lane.isCurrent)
    }

    @Test("read off its queue, the process traps")
    func offQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let bound = QueueBound(sending: 1, to: DispatchQueue(label: "nfctap.test.owner"))
            _ = bound.value
        }
    }

    @Test("read off its lane (from another queue), the process traps")
    func offLaneTraps() async {
        await #expect(processExitsWith: .failure) {
            let lane = ReaderLane.lane(for: ReaderInfo(name: "QueueBound trap reader", backend: .pcsc))
            let bound = QueueBound(sending: 1, to: lane)
            DispatchQueue(label: "nfctap.test.other").sync { _ = bound.value }
        }
    }

    @Test("made on its queue, the value is checked there; made as if on it from elsewhere, the process traps")
    func madeOnQueue() async {
        let queue = DispatchQueue(label: "nfctap.test.made")
        #expect(queue.sync { QueueBound(3, on: queue).value } == 3)
        await #expect(processExitsWith: .failure) {
            _ = QueueBound(1, on: DispatchQueue(label: "nfctap.test.elsewhere"))
        }
    }
}
