@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing

@Suite("Session invalidation codes and their causes")
struct SessionInvalidationTests {
    @Test("no reader attached at begin → 1, with a message naming the fix")
    func noReader() {
        let h = Harness(readers: [])
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["invalidated(1)"])
        let message = delegate.log.invalidations.first?.message ?? ""
        #expect(message.contains("plug in a reader"))
        #expect(message.contains("pcscd"))
        #expect(h.slot.isTaken == false)
    }

    @Test("pcscd not reachable at begin → 1 with the backend's hint")
    func noService() {
        let h = Harness()
        h.backend.listError = .serviceUnavailable(hint: "pcscd is not running: start it with `sudo systemctl start pcscd`")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(delegate.log.invalidations.map(\.code) == [.readerErrorUnsupportedFeature])
        #expect(delegate.log.invalidations.first?.message == "pcscd is not running: start it with `sudo systemctl start pcscd`")
    }

    @Test("a reader filter matching nothing → 1 naming the attached readers")
    func filterMatchesNothing() {
        let h = Harness(readers: ["Virtual PCD 00 00"])
        h.configuration.readerFilter = .exactName("ACR122")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(delegate.log.invalidations.first?.code == .readerErrorUnsupportedFeature)
        #expect(delegate.log.invalidations.first?.message.contains("Virtual PCD 00 00") == true)
    }

    @Test("201 comes at exactly 60 s after begin, not before")
    func sixtySeconds() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.advance(session, by: .seconds(60) - .nanoseconds(1))
        #expect(delegate.log.summary == ["active"])
        #expect(session.isReady)
        h.advance(session, by: .nanoseconds(1))
        #expect(delegate.log.summary == ["active", "invalidated(201)"])
        #expect(session.isReady == false)
        h.advance(session, by: .seconds(120))
        #expect(delegate.log.invalidations.count == 1)
    }

    @Test("the time limit is configurable; nil means none")
    func timeLimitConfigurable() {
        let h = Harness()
        h.configuration.timeLimit = nil
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.advance(session, by: .seconds(24 * 3600))
        #expect(delegate.log.summary == ["active"])
        #expect(h.clock.pendingCount == 0)
        session.invalidate()
        h.settle(session)

        let h2 = Harness()
        h2.configuration.timeLimit = .seconds(5)
        let delegate2 = ReadOnlyDelegate()
        let session2 = h2.ndefSession(delegate2)
        session2.begin()
        h2.advance(session2, by: .milliseconds(4999))
        #expect(delegate2.log.invalidations.isEmpty)
        h2.advance(session2, by: .milliseconds(1))
        #expect(delegate2.log.invalidations.map(\.code) == [.readerSessionInvalidationErrorSessionTimeout])
    }

    @Test("reader unplugged mid multi-read session → 202; re-plugging it delivers nothing more")
    func readerUnplugged() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.backend.place(ntag(message: "01"), on: "Reader A")
        h.settle(session)
        h.backend.unplug("Reader A")
        h.settle(session)
        h.backend.plug("Reader A")
        h.backend.place(ntag(message: "02"), on: "Reader A")
        h.advance(session, by: .seconds(61))
        #expect(delegate.log.summary == ["active", "messages(01)", "invalidated(202)"])
        #expect(delegate.log.invalidations.first?.message.contains("Reader A") == true)
        #expect(h.backend.isMonitoring == false)
    }

    @Test("pcscd lost mid-session → 202")
    func serviceLost() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.serviceLost()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "invalidated(202)"])
    }

    @Test("kiosk mode: an unplugged reader's tags are lost, the re-plugged reader is read again")
    func readerUnpluggedKiosk() async throws {
        let h = Harness()
        h.configuration.readerRemovalEndsSession = false
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        var events = session.events.makeAsyncIterator()
        h.backend.place(ntag(message: "01"), on: "Reader A")
        h.settle(session)
        h.backend.unplug("Reader A")
        h.settle(session)
        h.backend.plug("Reader A")
        h.backend.place(ntag(message: "02"), on: "Reader A")
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(01)", "messages(02)"])
        session.invalidate()
        h.settle(session)
        var names: [String] = []
        while let event = try await events.next() {
            switch event {
            case let .readerAdded(r): names.append("+\(r.name)")
            case let .readerRemoved(r): names.append("-\(r.name)")
            case let .tagArrived(t): names.append("arrived \(t.presence)")
            case let .ndefRead(m, t): names.append("read \(t.presence) \(payload(m).hexString)")
            case let .readFailed(t, e): names.append("failed \(t.presence) \(e.code.rawValue)")
            case let .tagLeft(t): names.append("left \(t.presence)")
            case .tagReport: continue  // Linux addition, covered by TagReportTests
            case .serviceLost, .serviceRestored: continue  // Linux additions, covered by SessionReportsTests
            case .becameActive, .ndefTagsDetected, .tagsDetected: continue  // Linux additions, covered by SessionEventTagsTests
            }
        }
        #expect(names == ["+Reader A", "arrived 1", "read 1 01", "left 1", "-Reader A",
                          "+Reader A", "arrived 2", "read 2 02"])
        #expect(delegate.log.invalidations.map(\.code) == [.readerSessionInvalidationErrorUserCanceled])
    }

    @Test("a second session while one is active → 203; the first goes on; after it ends a new one may begin")
    func secondSession() {
        let h = Harness()
        let first = ReadOnlyDelegate(), second = ReadOnlyDelegate(), third = ReadOnlyDelegate()
        let s1 = h.ndefSession(first)
        let s2 = h.ndefSession(second)
        s1.begin()
        h.settle(s1)
        s2.begin()
        h.settle(s2)
        #expect(second.log.summary == ["invalidated(203)"])
        h.backend.place(ntag(message: "01"), on: "Reader A")
        h.settle(s1)
        #expect(first.log.summary == ["active", "messages(01)"])
        s1.invalidate()
        h.settle(s1)
        let s3 = h.ndefSession(third)
        s3.begin()
        h.settle(s3)
        #expect(third.log.summary == ["active", "messages(01)"])  // the tag still in the field
        s3.invalidate()
        h.settle(s3)
    }

    @Test("a reader held by another process → 203")
    func busyReader() {
        let h = Harness()
        h.backend.busyReaders = ["Reader A"]
        h.backend.place(ntag(), on: "Reader A")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "invalidated(203)"])
        #expect(delegate.log.invalidations.first?.message.contains("in use by another process") == true)
    }

    @Test("invalidate() → 200 exactly once; nothing is delivered afterwards")
    func userCancel() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        session.invalidate()
        session.invalidate()
        session.invalidate(reason: .signal(15))
        h.backend.place(ntag(), on: "Reader A")
        h.advance(session, by: .seconds(61))
        #expect(delegate.log.summary == ["active", "invalidated(200)"])
        // A session is not reusable.
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "invalidated(200)"])
        #expect(h.backend.monitorsStopped == 1)
    }

    @Test("SIGINT-style invalidation carries 200 and names the signal")
    func signalCancel() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        session.invalidate(reason: .signal(2))
        h.settle(session)
        #expect(delegate.log.invalidations.map(\.code) == [.readerSessionInvalidationErrorUserCanceled])
        #expect(delegate.log.invalidations.first?.message == "session ended by signal 2")
    }

    @Test("a delivery still queued when the app calls invalidate() is dropped")
    func queuedDeliveryDropped() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        // Hold the delegate queue so the read's delivery waits behind it.
        let gate = DispatchSemaphore(value: 0)
        h.delegateQueue.async { gate.wait() }
        h.backend.place(ntag(message: "01"), on: "Reader A")
        session.engine.queue.sync {}
        session.invalidate()
        gate.signal()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "invalidated(200)"])
    }
}
