@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing
import TestSupport

/// Linux addition: `.tagReport` for every tag a read session reads, and the report handler that
/// decides the reader's feedback (inventory writes its record there before the beep).
@Suite("Tag reports and reader feedback")
struct TagReportTests {
    @Test("every tag gets a report, empty ones too; the handler runs before the feedback and decides it")
    func handlerRunsBeforeFeedback() {
        let h = Harness(readers: ["Reader A"])
        let seen = Locked<[(uid: String, bytes: [UInt8]?, signalsBefore: Int, code: Int?)]>([])
        let backend = h.backend
        h.configuration.tagReportHandler = { report in
            seen.withLock {
                $0.append((report.tag.uid.hexString, report.ndefBytes, backend.signals.count, report.error.map { $0.code.rawValue }))
            }
            return report.tag.uid.first != 0x05  // the second tag's record "fails to save"
        }
        let delegate = ReadOnlyDelegate()  // sessions hold their delegate weakly
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.place(ntag("04 01 01 01 01 01 01", message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        h.settle(session)
        h.backend.remove(from: "Reader A")
        h.settle(session)
        h.backend.place(ntag("05 02 02 02 02 02 02", message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        h.settle(session)
        h.backend.remove(from: "Reader A")
        h.settle(session)
        h.backend.place(ntag("04 03 03 03 03 03 03", message: ""), on: "Reader A")
        h.settle(session)
        let reports = seen.withLock { $0 }
        #expect(reports.map(\.uid) == ["04010101010101", "05020202020202", "04030303030303"])
        #expect(reports.map(\.signalsBefore) == [0, 1, 2])
        #expect(reports[2].bytes == [])
        #expect(reports[2].code == 403)
        #expect(h.backend.signals == [.success, .failure, .success])
        withExtendedLifetime(delegate) { session.invalidate() }
    }

    @Test("readerFeedback = false: no LED/buzzer at all")
    func quiet() {
        let h = Harness()
        h.configuration.readerFeedback = false
        h.backend.place(ntag(), on: "Reader A")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate, singleRead: true)
        session.begin()
        h.settle(session)
        #expect(h.backend.signals.isEmpty)
        #expect(h.backend.connects.count == 1)
        withExtendedLifetime(delegate) {}
    }

    @Test("the events stream carries the report with the decoded message")
    func reportInStream() async throws {
        let h = Harness()
        h.backend.place(ntag(message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        let session = NFCNDEFReaderSession(configuration: h.configuration, environment: h.environment)
        var iterator = session.events.makeAsyncIterator()
        h.settle(session)
        var report: NFCTagReport?
        while report == nil, let event = try await iterator.next() {
            if case let .tagReport(r) = event { report = r }
        }
        let r = try #require(report)
        #expect(r.error == nil)
        #expect(r.ndefBytes == [0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62])
        // The harness's stand-in codec wraps the tag bytes as one record's payload.
        #expect(r.message.map(payload) == r.ndefBytes)
        #expect(r.completed)
        session.invalidate()
    }
}

@Suite("Kiosk-style sessions wait for the reader service")
struct WaitingSessionTests {
    @Test("readerRemovalEndsSession = false: begun while the service is down, the session waits and reads once it is back")
    func beginsWithServiceDown() {
        let h = Harness(readers: [])
        h.backend.listError = .serviceUnavailable(hint: "pcscd is not running")
        h.configuration.readerRemovalEndsSession = false
        h.configuration.timeLimit = nil
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(session.isReady)
        #expect(delegate.log.invalidations.isEmpty)
        // pcscd comes up with a reader and a tag.
        h.backend.listError = nil
        h.backend.plug("Reader A")
        h.backend.place(ntag(message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        h.settle(session)
        #expect(delegate.log.messageBatches.count == 1)
        session.invalidate()
        h.settle(session)
    }

    @Test("iOS semantics (the default): no service at begin is error 1 at once")
    func iosSemanticsFail() {
        let h = Harness(readers: [])
        h.backend.listError = .serviceUnavailable(hint: "pcscd is not running")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(delegate.log.invalidations.map(\.code.rawValue) == [1])
    }
}

@Suite("Busy readers in kiosk-style sessions")
struct BusyReaderTests {
    @Test("a reader held by another process: reported for that tag (203), the kiosk-style session goes on")
    func busyReaderDoesNotEndAKioskSession() {
        let h = Harness()
        h.configuration.readerRemovalEndsSession = false
        h.configuration.timeLimit = nil
        let reports = Locked<[Int?]>([])
        h.configuration.tagReportHandler = { r in reports.withLock { $0.append(r.error.map { $0.code.rawValue }) }; return true }
        h.backend.busyReaders = ["Reader A"]
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.place(ntag(message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        h.settle(session)
        #expect(reports.withLock { $0 } == [203])
        #expect(delegate.log.invalidations.isEmpty)
        #expect(h.backend.connects.count >= 4, "tried again before giving up")
        // Released: the next tap is read.
        h.backend.busyReaders = []
        h.backend.remove(from: "Reader A")
        h.settle(session)
        h.backend.place(ntag(message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        h.settle(session)
        #expect(delegate.log.messageBatches.count == 1)
        session.invalidate()
        h.settle(session)
    }
}
