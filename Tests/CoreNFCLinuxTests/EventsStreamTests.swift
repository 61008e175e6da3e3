@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing

@Suite("Async events API")
struct EventsStreamTests {
    /// The Apple-style events; `.tagReport` (Linux addition) is covered by TagReportTests, the
    /// service events by SessionReportsTests.
    private func describe(_ event: NFCSessionEvent) -> String? {
        switch event {
        case .tagReport, .serviceLost, .serviceRestored, .becameActive, .ndefTagsDetected, .tagsDetected: return nil
        case let .readerAdded(r): return "+\(r.name)"
        case let .readerRemoved(r): return "-\(r.name)"
        case let .tagArrived(t): return "arrived \(t.uid.hexString)"
        case let .ndefRead(m, t): return "read \(t.uid.hexString) \(payload(m).hexString)"
        case let .readFailed(t, e): return "failed \(t.uid.hexString) \(e.code.rawValue)"
        case let .tagLeft(t): return "left \(t.uid.hexString)"
        }
    }

    @Test("iterating begins the session; events come in order; invalidate() ends the loop without error")
    func eventsInOrder() async throws {
        let h = Harness()
        let session = NFCNDEFReaderSession(configuration: h.configuration, environment: h.environment)
        var iterator = session.events.makeAsyncIterator()
        h.settle(session)
        #expect(session.isReady)
        let lost = ntag("04 00 00 00 00 00 02")
        lost.readFailure = TagError.tagLost
        h.backend.place(ntag("04 00 00 00 00 00 01", message: "CAFE"), on: "Reader A")
        h.settle(session)
        h.backend.remove(from: "Reader A")
        h.backend.place(lost, on: "Reader A")
        h.settle(session)
        h.backend.remove(from: "Reader A")
        session.invalidate()
        h.settle(session)
        var seen: [String] = []
        while let event = try await iterator.next() { if let d = describe(event) { seen.append(d) } }
        #expect(seen == ["+Reader A", "arrived 04000000000001", "read 04000000000001 CAFE", "left 04000000000001",
                         "arrived 04000000000002", "failed 04000000000002 100", "left 04000000000002"])
        #expect(session.isReady == false)
    }

    @Test("the sequence throws the session's error (201 at 60 s)")
    func throwsOnTimeout() async throws {
        let h = Harness()
        let session = NFCNDEFReaderSession(configuration: h.configuration, environment: h.environment)
        var iterator = session.events.makeAsyncIterator()
        h.advance(session, by: .seconds(60))
        guard case .becameActive? = try await iterator.next() else {
            Issue.record("no .becameActive first")
            return
        }
        #expect(try await iterator.next().map(describe) == "+Reader A")
        do {
            _ = try await iterator.next()
            Issue.record("expected 201")
        } catch {
            #expect(code(error) == 201)
        }
    }

    @Test("a reader unplugged ends the sequence with 202")
    func throwsOnUnplug() async throws {
        let h = Harness()
        let session = NFCNDEFReaderSession(configuration: h.configuration, environment: h.environment)
        var iterator = session.events.makeAsyncIterator()
        h.settle(session)
        h.backend.unplug("Reader A")
        h.settle(session)
        var seen: [String] = []
        do {
            while let event = try await iterator.next() { if let d = describe(event) { seen.append(d) } }
            Issue.record("expected 202")
        } catch {
            #expect(code(error) == 202)
        }
        #expect(seen == ["+Reader A", "-Reader A"])
    }

    @Test("single-read: the sequence delivers the message, then ends without error (204)")
    func singleReadEnds() async throws {
        let h = Harness()
        h.backend.place(ntag(message: "0102"), on: "Reader A")
        let session = NFCNDEFReaderSession(invalidateAfterFirstRead: true, configuration: h.configuration, environment: h.environment)
        var seen: [String] = []
        for try await event in session.events { if let d = describe(event) { seen.append(d) } }
        #expect(seen == ["+Reader A", "arrived 04A1B2C3D4E580", "read 04A1B2C3D4E580 0102"])
    }

    @Test("cancelling the consuming task invalidates the session with 200")
    func cancellation() async throws {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        // Swift 6: a session is not Sendable (as on iOS); the task below is its other user.
        nonisolated(unsafe) let session = h.ndefSession(delegate)
        let started = AsyncStream<Void>.makeStream()
        let task = Task {
            var count = 0
            for try await _ in session.events {
                count += 1
                started.continuation.yield()
            }
            return count
        }
        var signals = started.stream.makeAsyncIterator()
        await signals.next()  // the first event (reader added) arrived: the loop is running
        task.cancel()
        _ = try await task.value
        h.settle(session)
        #expect(delegate.log.summary == ["active", "invalidated(200)"])
        #expect(h.slot.isTaken == false)
        #expect(h.backend.isMonitoring == false)
    }

    @Test("leaving the loop early ends the session with 200")
    func breakEnds() async throws {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        h.backend.place(ntag(message: "01"), on: "Reader A")
        for try await event in session.events {
            if case .ndefRead = event { break }
        }
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(01)", "invalidated(200)"])
    }

    /// A read-only session past its first detection (the delegate was probed, the mode is set),
    /// whose delegate queue is then held by `gate`.
    private func readOnlySessionWithBusyDelegateQueue(_ h: Harness, _ delegate: ReadOnlyDelegate,
                                                      _ gate: DispatchSemaphore) -> NFCNDEFReaderSession {
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.place(ntag("04 00 00 00 00 00 01", message: "00"), on: "Reader A")
        h.settle(session)
        h.backend.remove(from: "Reader A")
        h.settle(session)
        h.delegateQueue.async { gate.wait() }
        return session
    }

    /// Iterates until `stop` says so, then drops the iterator as leaving a `for await` loop does.
    private func iterate(_ session: NFCNDEFReaderSession, placing card: FakeCard, _ h: Harness,
                         until stop: (NFCSessionEvent) -> Bool) async throws {
        var iterator: NFCSessionEvents.AsyncIterator? = session.events.makeAsyncIterator()  // subscribed
        h.backend.place(card, on: "Reader A")
        while let event = try await iterator!.next() {
            if stop(event) { break }
        }
        iterator = nil
        // Leaving the loop ended the session; wait until the engine has finished it.
        for _ in 0..<400 where session.engine.phase != .invalidated {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(session.engine.phase == .invalidated)
    }

    @Test("a consumer leaving at .ndefRead while the delegate queue is busy: the delegate still gets that read, then 200")
    func breakWhileDelegateQueueBusy() async throws {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let gate = DispatchSemaphore(value: 0)
        let session = readOnlySessionWithBusyDelegateQueue(h, delegate, gate)
        // The read's delivery is queued behind the gate when the consumer sees the event and
        // leaves; with events emitted before the delivery was queued it was dropped every time.
        try await iterate(session, placing: ntag(message: "01"), h) { event in
            if case .ndefRead = event { return true }
            return false
        }
        gate.signal()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(00)", "messages(01)", "invalidated(200)"])
    }

    @Test("a consumer leaving at .tagReport still leaves the delegate the same read")
    func breakAtTagReport() async throws {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let gate = DispatchSemaphore(value: 0)
        let session = readOnlySessionWithBusyDelegateQueue(h, delegate, gate)
        try await iterate(session, placing: ntag(message: "02"), h) { event in
            if case .tagReport = event { return true }
            return false
        }
        gate.signal()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(00)", "messages(02)", "invalidated(200)"])
    }

    @Test("subscribing after the session ended ends at once with its error")
    func lateSubscriber() async throws {
        let h = Harness(readers: [])
        let session = NFCNDEFReaderSession(configuration: h.configuration, environment: h.environment)
        session.begin()
        h.settle(session)
        do {
            for try await _ in session.events { Issue.record("no event expected") }
            Issue.record("expected error 1")
        } catch {
            #expect(code(error) == 1)
        }
    }

    @Test("readOnce returns the first message")
    func readOnce() async throws {
        let h = Harness()
        h.backend.place(ntag(message: "D1 01 00"), on: "Reader A")
        let message = try await NFCNDEFReaderSession.readOnce(configuration: h.configuration, environment: h.environment)
        #expect(payload(message) == [0xD1, 0x01, 0x00])
        #expect(h.slot.isTaken == false)
    }

    @Test("readOnce throws 1 when no reader is attached")
    func readOnceNoReader() async {
        let h = Harness(readers: [])
        do {
            _ = try await NFCNDEFReaderSession.readOnce(configuration: h.configuration, environment: h.environment)
            Issue.record("expected error 1")
        } catch {
            #expect(code(error) == 1)
        }
    }
}
