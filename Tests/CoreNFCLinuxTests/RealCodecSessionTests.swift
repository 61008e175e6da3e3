@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing
import TestSupport

/// The session layer with the project's NDEF codec (not the test stand-in).
@Suite("Sessions with the real NDEF codec")
struct RealCodecSessionTests {
    private func realCodecEnvironment(_ h: Harness) -> NFCReaderEnvironment {
        let backend = h.backend
        return NFCReaderEnvironment(
            makeBackends: { [backend] },
            makeNDEFOperations: { connection in
                guard let fake = connection as? FakeConnection else { throw TagError.unsupported("not a fake connection") }
                return FakeNDEFOperations(card: fake.card)
            },
            clock: h.clock, slot: h.slot)
    }

    @Test("a URI record read from a tag decodes to the URL")
    func readURI() {
        let h = Harness()
        h.backend.place(ntag(message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")  // https://a.b
        let delegate = MessageKeeper()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: h.delegateQueue, invalidateAfterFirstRead: true,
                                           configuration: h.configuration, environment: realCodecEnvironment(h))
        session.begin()
        h.settle(session)
        let records = delegate.messages.current.first?.records ?? []
        #expect(records.count == 1)
        #expect(records.first?.wellKnownTypeURIPayload() == URL(string: "https://a.b"))
        #expect(delegate.codes.current == [204])
    }

    @Test("a message that does not decode is not delivered as data")
    func garbage() {
        let h = Harness()
        h.backend.place(ntag(message: "D1 01 FF 55 04"), on: "Reader A")  // payload length beyond the bytes
        let delegate = MessageKeeper()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: h.delegateQueue, invalidateAfterFirstRead: true,
                                           configuration: h.configuration, environment: realCodecEnvironment(h))
        session.begin()
        h.settle(session)
        #expect(delegate.messages.current.isEmpty)
        #expect(session.isReady)
        session.invalidate()
        h.settle(session)
    }

    @Test("writeNDEF sends the encoded bytes to the tag logic")
    func writeURI() async throws {
        let h = Harness()
        let card = ntag()
        h.backend.place(card, on: "Reader A")
        let delegate = ReadWriteDelegate()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: h.delegateQueue, invalidateAfterFirstRead: false,
                                           configuration: h.configuration, environment: realCodecEnvironment(h))
        session.begin()
        h.settle(session)
        let tag = try #require(delegate.lastTags.first)
        try await session.connect(to: tag)
        let record = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://a.b"))
        try await tag.writeNDEF(NFCNDEFMessage(records: [record]))
        #expect(card.writes == [[UInt8](hex: "D1 01 04 55 04 61 2E 62")!])
        let back = try await tag.readNDEF()
        #expect(back.records.first?.wellKnownTypeURIPayload() == URL(string: "https://a.b"))
        session.invalidate()
    }
}

/// Keeps the delivered messages themselves.
final class MessageKeeper: NFCNDEFReaderSessionDelegate {
    let messages = Locked<[NFCNDEFMessage]>([])
    let codes = Locked<[Int]>([])

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        self.messages.withLock { $0 += messages }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        codes.withLock { $0.append((error as? NFCReaderError)?.code.rawValue ?? -1) }
    }
}
