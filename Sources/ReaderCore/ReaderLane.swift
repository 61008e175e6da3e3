import Dispatch
import NFCTags
import Foundation
import Synchronization

/// The thread one reader's tag I/O runs on (docs/architecture.md, "Threads and queues").
///
/// Every blocking exchange with a tag (connect, APDUs, disconnect) runs on its reader's lane, never
/// on a session's state queue, so a card that stops answering holds only its own reader: other
/// readers, the session clock, deliveries and signal handling go on. Lanes are process-wide, one per
/// reader of a backend kind: an exchange abandoned after its deadline keeps that one thread until
/// the driver returns, and later work for the reader waits behind it instead of starting another
/// thread. Threads stay bounded by the number of readers.
public final class ReaderLane: Sendable {
    public let readerName: String
    /// Work queued for the lane's thread, in order, and whether that thread was started.
    private let queue = Mutex(Queue())
    /// Signalled once per item queued: the thread takes one item per wait, so the count never
    /// exceeds the queue's length and no item is missed.
    private let queued = DispatchSemaphore(value: 0)
    private let threadName: String
    /// The lane thread's `pthread_self()`, stored once when it starts (0 before; lane threads never
    /// end, so the id is never reused). Compared by `isCurrent`: storing the lane in the thread's
    /// `threadDictionary` instead would bridge it through `__SwiftValue` on every check.
    private let threadID = Atomic<UInt>(0)

    private struct Queue {
        var work: [@Sendable () -> Void] = []
        var started = false
    }

    private init(key: String, readerName: String) {
        self.readerName = readerName
        threadName = "nfctap lane \(key)"
    }

    /// Runs `work` after everything queued before it on this reader, on the lane's own thread
    /// (started on first use; a plain thread, so a blocked exchange never makes a thread pool grow).
    public func async(_ item: @escaping @Sendable () -> Void) {
        let start = queue.withLock { queue in
            queue.work.append(item)
            defer { queue.started = true }
            return !queue.started
        }
        if start {
            let thread = Thread { [self] in serve() }
            thread.name = threadName
            thread.start()
        }
        queued.signal()
    }

    private func serve() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        while true {
            queued.wait()
            let next = queue.withLock { $0.work.removeFirst() }
            next()
        }
    }

    /// True on this lane's thread (`QueueBound` checks it).
    public var isCurrent: Bool {
        let id = threadID.load(ordering: .acquiring)
        return id != 0 && id == UInt(pthread_self())
    }

    /// Waits until the work queued on this lane so far has run, at most `timeout` seconds.
    /// Returns false when the lane is still busy (a stuck exchange). For tests.
    public func waitUntilIdle(timeout: TimeInterval) -> Bool {
        let done = DispatchSemaphore(value: 0)
        async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// Waits until every lane has run the work queued so far, `timeout` seconds in all at most;
    /// returns the lanes still busy (stuck in an exchange).
    @discardableResult
    public static func waitUntilAllIdle(timeout: TimeInterval) -> [ReaderLane] {
        let all = lanes.withLock { Array($0.values) }
        let end = Date().addingTimeInterval(timeout)
        return all.filter { !$0.waitUntilIdle(timeout: max(0, end.timeIntervalSinceNow)) }
    }

    /// Makes process exit wait (at most `exitGrace`) for the lanes' last work: connections closed
    /// after a session ended (with SCARD_LEAVE_CARD, not the reset pcscd gives the cards of a
    /// client that vanished). Without it, exit runs pcsc-lite's destructor while a lane may still
    /// be inside a pcsc-lite call. A lane stuck in an exchange is not waited for beyond the grace
    /// (it sits in a system call and touches nothing meanwhile). Registered with the first lane.
    static func drainAtExit() {
        atexit { ReaderLane.waitUntilAllIdle(timeout: ReaderLane.exitGrace) }
    }

    /// How long exit waits for busy lanes.
    public static let exitGrace: TimeInterval = 0.5

    private static let lanes = Mutex<[String: ReaderLane]>([:])

    /// The lane of `reader` on `backend` (made on first use, kept for the process's life).
    public static func lane(for reader: ReaderInfo) -> ReaderLane {
        let key = "\(reader.backend.rawValue):\(reader.name)"
        return lanes.withLock { lanes in
            if let lane = lanes[key] { return lane }
            let lane = ReaderLane(key: key, readerName: reader.name)
            if lanes.isEmpty { drainAtExit() }
            lanes[key] = lane
            return lane
        }
    }
}

/// A one-way "stop" for the exchanges of one connection: set from any thread when the connection is
/// abandoned (deadline passed, session ended); every later exchange fails with `TagError.tagLost`
/// before it reaches the reader, so a long read stops between chunks.
public final class AbandonFlag: Sendable {
    private let raised = Atomic(false)

    public init() {}

    public var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Raises the flag; returns true the first time.
    @discardableResult
    public func raise() -> Bool {
        !raised.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// A transceiver that refuses every exchange once its connection was abandoned.
public final class AbandonableTransceiver: Transceiver {
    public let inner: Transceiver
    public let flag: AbandonFlag

    public init(_ inner: Transceiver, flag: AbandonFlag) {
        self.inner = inner
        self.flag = flag
    }

    public func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        guard !flag.isRaised else { throw TagError.tagLost }
        return try inner.transceive(command)
    }
}
