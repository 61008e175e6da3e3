@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing

/// The Linux additions that let a session be driven by its events alone (issue 25): the
/// `.becameActive` event, tags handed out as `.ndefTagsDetected` / `.tagsDetected` by sessions
/// without a delegate, and the `Sendable` invalidator.
@Suite("Session events: tags handed out, invalidator")
struct SessionEventTagsTests {
    @Test("a read-write session without a delegate hands out its tags; connect, query, write and invalidate through events")
    func ndefReadWriteByEvents() async throws {
        let h = Harness()
        let card = ntag(message: "D1 01 01 54 00")
        h.backend.place(card, on: "Reader A")
        let session = NFCNDEFReaderSession(readWriteWith: h.configuration, environment: h.environment)
        var seen: [String] = []
        for try await event in session.events {
            switch event {
            case let .becameActive(readers):
                seen.append("active \(readers.map(\.name))")
            case let .ndefTagsDetected(tags):
                seen.append("tags(\(tags.count))")
                #expect(h.backend.connects.isEmpty)  // the session reads nothing on its own
                try await session.connect(to: tags[0])
                let (status, capacity) = try await tags[0].queryNDEFStatus()
                #expect(status == .readWrite && capacity == 137)
                try await tags[0].writeNDEF(ndefMessage([0xD1, 0x01, 0x02, 0x54, 0x00, 0x41]))
                #expect(session.connectedDetectedTag?.uid == card.uid)
                session.invalidate()
            case .ndefRead, .tagReport, .readFailed:
                Issue.record("a read-write session read the tag: \(event)")
            default:
                continue
            }
        }
        h.settle(session)  // the connection closes on its reader's lane
        #expect(seen == ["active [\"Reader A\"]", "tags(1)"])
        #expect(card.writes == [[0xD1, 0x01, 0x02, 0x54, 0x00, 0x41]])
        #expect(h.backend.connects.count == 1)
        #expect(h.backend.disconnects == 1)
    }

    @Test("restartPolling() hands the tags in the field out again as a new batch")
    func restartPollingHandsOutAgain() async throws {
        let h = Harness()
        h.backend.place(ntag(), on: "Reader A")
        let session = NFCNDEFReaderSession(readWriteWith: h.configuration, environment: h.environment)
        var batches = 0
        for try await event in session.events {
            guard case let .ndefTagsDetected(tags) = event else { continue }
            batches += 1
            #expect(tags.count == 1)
            if batches == 1 { session.restartPolling() } else { session.invalidate() }
        }
        #expect(batches == 2)
    }

    @Test("a tag reader session without a delegate hands out ISO 7816 tags; APDUs go through the event's tag")
    func tagReaderSessionByEvents() async throws {
        let h = Harness()
        let card = type4Card()
        card.apduResponder = { _ in [0x01, 0x02, 0x90, 0x00] }
        h.backend.place(card, on: "Reader A")
        let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, configuration: h.configuration,
                                                       environment: h.environment))
        var replies: [[UInt8]] = []
        for try await event in session.events {
            guard case let .tagsDetected(tags) = event else { continue }
            guard case let .iso7816(tag)? = tags.first else {
                Issue.record("not an ISO 7816 tag: \(tags)")
                session.invalidate()
                continue
            }
            try await session.connect(to: tags[0])
            let apdu = try #require(NFCISO7816APDU(data: Data([0x00, 0xB0, 0x00, 0x00, 0x02])))
            let (data, sw1, sw2) = try await tag.sendCommand(apdu: apdu)
            replies.append([UInt8](data) + [sw1, sw2])
            session.invalidate()
        }
        #expect(replies == [[0x01, 0x02, 0x90, 0x00]])
        #expect(card.apdusSent.last == [0x00, 0xB0, 0x00, 0x00, 0x02])
    }

    @Test("a read-only session still reads: no tags are handed out, and the invalidator ends it from another task")
    func invalidatorEndsTheStream() async throws {
        let h = Harness()
        let session = NFCNDEFReaderSession(configuration: h.configuration, environment: h.environment)
        let invalidator = session.invalidator
        var events: [String] = []
        for try await event in session.events {
            switch event {
            case .becameActive:
                events.append("active")
                // From a task that does not own the session, as a signal handler does.
                Task.detached { invalidator.invalidate(reason: .signal(SIGTERM)) }
            case .ndefTagsDetected, .tagsDetected:
                events.append("tags")
            default:
                continue
            }
        }
        #expect(events == ["active"])
        #expect(session.isReady == false)
    }

    @Test("the time limit ends an events-driven read-write session with 201, thrown by the stream")
    func timeLimitThrows() async throws {
        let h = Harness()
        var configuration = h.configuration
        configuration.timeLimit = .seconds(3)
        let session = NFCNDEFReaderSession(readWriteWith: configuration, environment: h.environment)
        var iterator = session.events.makeAsyncIterator()
        guard case .becameActive? = try await iterator.next() else {
            Issue.record("the first event is not .becameActive")
            return
        }
        h.advance(session, by: .seconds(3))
        do {
            while try await iterator.next() != nil {}
            Issue.record("the stream ended without the time limit's error")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerSessionInvalidationErrorSessionTimeout)
        }
    }
}
