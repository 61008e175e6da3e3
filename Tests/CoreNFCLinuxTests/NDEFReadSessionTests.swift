@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing

@Suite("NFCNDEFReaderSession, read-only modes")
struct NDEFReadSessionTests {
    @Test("single-read: the first message is delivered, then 204")
    func singleRead() {
        let h = Harness()
        h.backend.place(ntag(message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate, singleRead: true)
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(D101045504612E62)", "invalidated(204)"])
        #expect(session.isReady == false)
        #expect(h.slot.isTaken == false)
        #expect(h.backend.monitorsStopped == 1)
        #expect(h.backend.connects.map(\.exclusive) == [true])
        #expect(h.backend.disconnects == 1)
        #expect(h.backend.signals == [.success])
    }

    @Test("single-read with two tags in one batch delivers only the first message")
    func singleReadTwoTags() {
        let h = Harness(readers: ["Reader A", "Reader B"])
        h.backend.place(ntag("04 01 01 01 01 01 01", message: "01"), on: "Reader A")
        h.backend.place(ntag("04 02 02 02 02 02 02", message: "02"), on: "Reader B")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate, singleRead: true)
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(01)", "invalidated(204)"])
        #expect(h.backend.connects.count == 1)
    }

    @Test("multi-read: a tag is read once per presence and again after it left and came back")
    func multiReadPresence() {
        let h = Harness()
        let card = ntag(message: "AA")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.place(card, on: "Reader A")
        h.settle(session)
        // Left on the reader: time passes, no new read.
        h.advance(session, by: .seconds(5))
        #expect(delegate.log.messageBatches == [[[0xAA]]])
        card.message = [0xBB]
        h.backend.remove(from: "Reader A")
        h.settle(session)
        h.backend.place(card, on: "Reader A")
        h.settle(session)
        #expect(delegate.log.messageBatches == [[[0xAA]], [[0xBB]]])
        #expect(h.backend.connects.count == 2)
        #expect(session.isReady)
        session.invalidate()
        h.settle(session)
        #expect(delegate.log.invalidations.map(\.code) == [.readerSessionInvalidationErrorUserCanceled])
    }

    @Test("multi-read: tag gone during the read is skipped and the session continues")
    func multiReadTagLost() {
        let h = Harness()
        let card = ntag(message: "AA")
        card.readFailure = TagError.tagLost
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.backend.place(card, on: "Reader A")
        h.settle(session)
        #expect(delegate.log.summary == ["active"])
        #expect(session.isReady)
        #expect(h.backend.signals == [.failure])
        h.backend.remove(from: "Reader A")
        h.backend.place(card, on: "Reader A")
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(AA)"])
        session.invalidate()
        h.settle(session)
    }

    @Test("single-read: tag gone during the read ends the session with 100")
    func singleReadTagLost() {
        let h = Harness()
        let card = ntag()
        card.readFailure = TagError.tagLost
        h.backend.place(card, on: "Reader A")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate, singleRead: true)
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "invalidated(100)"])
    }

    @Test("tags that are not NDEF, empty or undecodable are skipped; polling goes on")
    func skippedTags() {
        let h = Harness(readers: ["R1", "R2", "R3", "R4"])
        let plain = ntag("04 00 00 00 00 00 01")
        plain.notNDEF = true
        let empty = ntag("04 00 00 00 00 00 02", message: "")
        let garbled = ntag("04 00 00 00 00 00 03", message: "BA 00")
        let other = FakeCard(uid: [1, 2, 3, 4], technology: .other)
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate, singleRead: true)
        session.begin()
        h.backend.place(plain, on: "R1")
        h.backend.place(empty, on: "R2")
        h.backend.place(garbled, on: "R3")
        h.backend.place(other, on: "R4")
        h.settle(session)
        #expect(delegate.log.summary == ["active"])
        #expect(h.backend.connects.count == 3)  // the `.other` tag is not even connected
        h.backend.remove(from: "R1")
        h.backend.place(ntag("04 00 00 00 00 00 05", message: "C0"), on: "R1")
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(C0)", "invalidated(204)"])
    }

    @Test("tags arriving within the batch window come in one callback; later ones in the next")
    func batching() {
        let h = Harness(readers: ["Reader A", "Reader B", "Reader C"])
        h.configuration.batchWindow = .milliseconds(100)
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.place(ntag("04 01 01 01 01 01 01", message: "01"), on: "Reader A")
        h.advance(session, by: .milliseconds(60))
        #expect(delegate.log.messageBatches.isEmpty)
        h.backend.place(ntag("04 02 02 02 02 02 02", message: "02"), on: "Reader B")
        h.advance(session, by: .milliseconds(40))
        #expect(delegate.log.messageBatches == [[[0x01], [0x02]]])
        h.backend.place(ntag("04 03 03 03 03 03 03", message: "03"), on: "Reader C")
        h.advance(session, by: .milliseconds(99))
        #expect(delegate.log.messageBatches.count == 1)
        h.advance(session, by: .milliseconds(1))
        #expect(delegate.log.messageBatches == [[[0x01], [0x02]], [[0x03]]])
        session.invalidate()
        h.settle(session)
    }

    @Test("a single reader: its tag is read at once, no batch window (it cannot grow)")
    func singleReaderNoWindow() {
        let h = Harness()
        h.configuration.batchWindow = .milliseconds(100)
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.place(ntag(message: "01"), on: "Reader A")
        h.settle(session)
        #expect(delegate.log.messageBatches == [[[0x01]]])
        session.invalidate()
        h.settle(session)
    }

    @Test("a tag that leaves inside the batch window is not read")
    func leftInsideWindow() {
        let h = Harness(readers: ["Reader A", "Reader B"])
        h.configuration.batchWindow = .milliseconds(100)
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.backend.place(ntag(), on: "Reader A")
        h.advance(session, by: .milliseconds(50))
        h.backend.remove(from: "Reader A")
        h.advance(session, by: .milliseconds(100))
        #expect(delegate.log.messageBatches.isEmpty)
        #expect(h.backend.connects.isEmpty)
        session.invalidate()
        h.settle(session)
    }

    @Test("readers can be chosen by name; others are ignored")
    func readerFilter() {
        let h = Harness(readers: ["ACS ACR122U PICC Interface 00 00", "Virtual PCD 00 00"])
        h.configuration.readerFilter = .nameContains("acr122")
        h.backend.place(ntag(message: "01"), on: "Virtual PCD 00 00")
        h.backend.place(ntag("04 09 09 09 09 09 09", message: "02"), on: "ACS ACR122U PICC Interface 00 00")
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(delegate.log.messageBatches == [[[0x02]]])
        session.invalidate()
        h.settle(session)
    }

    @Test("a reader plugged in during the session joins it")
    func readerJoins() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        h.backend.plug("Reader B")
        h.backend.place(ntag(message: "0B"), on: "Reader B")
        h.settle(session)
        #expect(delegate.log.messageBatches == [[[0x0B]]])
        session.invalidate()
        h.settle(session)
    }

    @Test("alertMessage goes to the alert handler when active and on change; invalidate(errorMessage:) too")
    func alerts() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.alertMessage = "Hold your tag near the reader"
        #expect(h.alerts.isEmpty)
        session.begin()
        h.settle(session)
        session.alertMessage = "Reading…"
        session.invalidate(errorMessage: "Not a Zebra tag")
        h.settle(session)
        #expect(h.alerts == ["Hold your tag near the reader", "Reading…", "Not a Zebra tag"])
        #expect(delegate.log.invalidations.map(\.code) == [.readerSessionInvalidationErrorUserCanceled])
    }
}
