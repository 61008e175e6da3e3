@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing

@Suite("NFCNDEFReaderSession, read-write mode")
struct NDEFReadWriteSessionTests {
    /// Begins a read-write session with `card` on Reader A and returns the tag handed out.
    private func start(_ h: Harness, _ card: FakeCard) -> (NFCNDEFReaderSession, ReadWriteDelegate, any NFCNDEFTag) {
        let delegate = ReadWriteDelegate()
        let session = h.ndefSession(delegate)
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        return (session, delegate, delegate.lastTags.first!)
    }

    @Test("connect → query → read → write → lock → invalidate; didDetectNDEFs is never called")
    func fullFlow() {
        let h = Harness()
        let card = ntag(message: "D1 01 01 54 00")
        let (session, delegate, tag) = start(h, card)
        #expect(delegate.log.summary == ["active", "tags(1)"])
        #expect(tag.isAvailable)
        #expect(h.backend.connects.isEmpty)  // nothing is read on the app's behalf

        let connected = Completion<(any Error)?>()
        session.connect(to: tag) { connected.fulfil($0) }
        #expect(connected.wait()! == nil)
        #expect(connected.queue == "test.delegate")

        let queried = Completion<(NFCNDEFStatus, Int, (any Error)?)>()
        tag.queryNDEFStatus { queried.fulfil(($0, $1, $2)) }
        let status = queried.wait()!
        #expect(status.0 == .readWrite && status.1 == 137 && status.2 == nil)

        let read = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tag.readNDEF { read.fulfil(($0, $1)) }
        #expect(read.wait()!.0.map(payload) == [0xD1, 0x01, 0x01, 0x54, 0x00])

        let wrote = Completion<(any Error)?>()
        tag.writeNDEF(ndefMessage([0xD1, 0x01, 0x02, 0x54, 0x00, 0x41])) { wrote.fulfil($0) }
        #expect(wrote.wait()! == nil)
        #expect(card.writes == [[0xD1, 0x01, 0x02, 0x54, 0x00, 0x41]])

        let locked = Completion<(any Error)?>()
        tag.writeLock { locked.fulfil($0) }
        #expect(locked.wait()! == nil)
        #expect(card.locked)

        session.invalidate()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "tags(1)", "invalidated(200)"])
        #expect(tag.isAvailable == false)
        #expect(h.backend.connects.count == 1)
        #expect(h.backend.disconnects == 1)
    }

    @Test("the async forms work the same")
    func asyncFlow() async throws {
        let h = Harness()
        let card = type4Card(message: "D1 01 01 54 00")
        let (session, _, tag) = start(h, card)
        try await session.connect(to: tag)
        let (status, capacity) = try await tag.queryNDEFStatus()
        #expect(status == .readWrite && capacity == 137)
        #expect(payload(try await tag.readNDEF()) == [0xD1, 0x01, 0x01, 0x54, 0x00])
        try await tag.writeNDEF(ndefMessage([0x01, 0x02, 0x03]))
        #expect(card.writes == [[0x01, 0x02, 0x03]])
        card.lockTag()
        await #expect(throws: NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: TagError.readOnly.description)) {
            try await tag.writeNDEF(ndefMessage([0x04]))
        }
        session.invalidate()
    }

    @Test("operations before connect(to:) fail with 104")
    func notConnected() {
        let h = Harness()
        let (session, _, tag) = start(h, ntag())
        let read = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tag.readNDEF { read.fulfil(($0, $1)) }
        #expect(code(read.wait()!.1) == 104)
        #expect(h.backend.connects.isEmpty)
        session.invalidate()
        h.settle(session)
    }

    @Test("connecting another tag drops the previous connection")
    func connectAnother() {
        let h = Harness(readers: ["Reader A", "Reader B"])
        let delegate = ReadWriteDelegate()
        let session = h.ndefSession(delegate)
        h.backend.place(ntag("04 01 01 01 01 01 01", message: "01"), on: "Reader A")
        h.backend.place(ntag("04 02 02 02 02 02 02", message: "02"), on: "Reader B")
        session.begin()
        h.settle(session)
        let tags = delegate.lastTags
        #expect(tags.count == 2)
        let first = Completion<(any Error)?>(), second = Completion<(any Error)?>()
        session.connect(to: tags[0]) { first.fulfil($0) }
        session.connect(to: tags[1]) { second.fulfil($0) }
        #expect(first.wait()! == nil && second.wait()! == nil)
        h.settle(session)  // the replaced connection closes on its reader's lane
        #expect(h.backend.disconnects == 1)
        let oldRead = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tags[0].readNDEF { oldRead.fulfil(($0, $1)) }
        #expect(code(oldRead.wait()!.1) == 104)
        let newRead = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tags[1].readNDEF { newRead.fulfil(($0, $1)) }
        #expect(newRead.wait()!.0.map(payload) == [0x02])
        session.invalidate()
        h.settle(session)
    }

    @Test("restartPolling(): old tags become invalid, tags in the field come again as new objects")
    func restartPolling() {
        let h = Harness()
        let (session, delegate, old) = start(h, ntag(message: "01"))
        let connected = Completion<(any Error)?>()
        session.connect(to: old) { connected.fulfil($0) }
        #expect(connected.wait()! == nil)
        // Polling is paused after didDetect: a second tag on another reader is not reported yet.
        h.backend.plug("Reader B")
        h.backend.place(ntag("04 02 02 02 02 02 02", message: "02"), on: "Reader B")
        h.settle(session)
        #expect(delegate.log.summary == ["active", "tags(1)"])

        session.restartPolling()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "tags(1)", "tags(2)"])
        #expect(old.isAvailable == false)
        #expect(h.backend.disconnects == 1)
        let stale = Completion<(any Error)?>()
        session.connect(to: old) { stale.fulfil($0) }
        #expect(code(stale.wait()!) == 104)
        #expect(delegate.lastTags.allSatisfy { $0.isAvailable })
        #expect(delegate.lastTags.allSatisfy { new in new !== old })
        session.invalidate()
        h.settle(session)
    }

    @Test("Apple's sample: more than one tag → alert, wait 500 ms on the session clock, restartPolling")
    func sampleRestartAfterDelay() {
        let h = Harness(readers: ["Reader A", "Reader B"])
        let delegate = ReadWriteDelegate()
        delegate.onTags = { session, tags in
            if tags.count > 1 {
                session.alertMessage = "More than 1 tag is detected. Please remove all tags and try again."
                session.schedule(after: .milliseconds(500)) { session.restartPolling() }
            }
        }
        let session = h.ndefSession(delegate)
        h.backend.place(ntag("04 01 01 01 01 01 01"), on: "Reader A")
        h.backend.place(ntag("04 02 02 02 02 02 02"), on: "Reader B")
        session.begin()
        h.settle(session)
        h.backend.remove(from: "Reader B")
        h.advance(session, by: .milliseconds(499))
        #expect(delegate.log.summary == ["active", "tags(2)"])
        h.advance(session, by: .milliseconds(1))
        #expect(delegate.log.summary == ["active", "tags(2)", "tags(1)"])
        #expect(h.alerts == ["More than 1 tag is detected. Please remove all tags and try again."])
        session.invalidate()
        h.settle(session)
    }

    @Test("tag gone during a read → 100 to the completion; the session continues")
    func tagLostDuringRead() {
        let h = Harness()
        let card = ntag()
        let (session, delegate, tag) = start(h, card)
        let connected = Completion<(any Error)?>()
        session.connect(to: tag) { connected.fulfil($0) }
        _ = connected.wait()
        card.readFailure = TagError.tagLost
        let read = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tag.readNDEF { read.fulfil(($0, $1)) }
        let result = read.wait()!
        #expect(result.0 == nil && code(result.1) == 100)
        #expect(session.isReady)
        h.backend.remove(from: "Reader A")
        h.settle(session)
        #expect(tag.isAvailable == false)
        let again = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tag.readNDEF { again.fulfil(($0, $1)) }
        #expect(code(again.wait()!.1) == 100)
        #expect(delegate.log.invalidations.isEmpty)
        session.invalidate()
        h.settle(session)
    }

    @Test("NDEF error codes: empty tag 403, empty message 403, read-only 400, too large 402, not NDEF → notSupported")
    func ndefErrors() {
        let h = Harness()
        let card = ntag(message: "")
        let (session, _, tag) = start(h, card)
        let connected = Completion<(any Error)?>()
        session.connect(to: tag) { connected.fulfil($0) }
        _ = connected.wait()

        let read = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tag.readNDEF { read.fulfil(($0, $1)) }
        #expect(code(read.wait()!.1) == 403)

        let emptyWrite = Completion<(any Error)?>()
        tag.writeNDEF(NFCNDEFMessage(records: [])) { emptyWrite.fulfil($0) }
        #expect(code(emptyWrite.wait()!) == 403)

        card.capacity = 4
        let tooLarge = Completion<(any Error)?>()
        tag.writeNDEF(ndefMessage([1, 2, 3, 4, 5])) { tooLarge.fulfil($0) }
        #expect(code(tooLarge.wait()!) == 402)

        card.writeFailure = TagError.status(sw1: 0x65, sw2: 0x81)
        card.capacity = 100
        let failed = Completion<(any Error)?>()
        tag.writeNDEF(ndefMessage([1])) { failed.fulfil($0) }
        #expect(code(failed.wait()!) == 401)

        card.status = .readOnly
        let readOnly = Completion<(any Error)?>()
        tag.writeNDEF(ndefMessage([1])) { readOnly.fulfil($0) }
        #expect(code(readOnly.wait()!) == 400)
        #expect(card.writes.isEmpty)

        card.notNDEF = true
        let queried = Completion<(NFCNDEFStatus, Int, (any Error)?)>()
        tag.queryNDEFStatus { queried.fulfil(($0, $1, $2)) }
        let status = queried.wait()!
        #expect(status.0 == .notSupported && status.1 == 0 && status.2 == nil)
        session.invalidate()
        h.settle(session)
    }

    @Test("connect to a tag on a reader held by another process → 203 to the completion, then the session ends with 203")
    func busyOnConnect() {
        let h = Harness()
        let (session, delegate, tag) = start(h, ntag())
        h.backend.busyReaders = ["Reader A"]
        let connected = Completion<(any Error)?>()
        session.connect(to: tag) { connected.fulfil($0) }
        #expect(code(connected.wait()!) == 203)
        h.settle(session)
        #expect(delegate.log.summary == ["active", "tags(1)", "invalidated(203)"])
    }

    @Test("operations after the session ended fail with 103")
    func afterInvalidation() {
        let h = Harness()
        let (session, _, tag) = start(h, ntag())
        session.invalidate()
        h.settle(session)
        let read = Completion<(NFCNDEFMessage?, (any Error)?)>()
        tag.readNDEF { read.fulfil(($0, $1)) }
        #expect(code(read.wait()!.1) == 103)
    }

    @Test("the read-write session also times out at 60 s")
    func readWriteTimeout() {
        let h = Harness()
        let (session, delegate, _) = start(h, ntag())
        h.advance(session, by: .seconds(60))
        #expect(delegate.log.summary == ["active", "tags(1)", "invalidated(201)"])
    }
}
