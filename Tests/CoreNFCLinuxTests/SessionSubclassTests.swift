@testable import CoreNFCLinux
import Foundation
import Testing
import TestSupport

/// A subclass as some apps declare one: nothing overridden.
final class PlainNDEFSession: NFCNDEFReaderSession {}

/// A test double as wrapper libraries write one: the session calls are recorded, not performed.
final class RecordingTagSession: NFCTagReaderSession {
    let calls = Locked<[String]>([])
    override func begin() { calls.withLock { $0.append("begin") } }
    override func invalidate() { calls.withLock { $0.append("invalidate") } }
    override func invalidate(errorMessage: String) { calls.withLock { $0.append("invalidate(\(errorMessage))") } }
    override func restartPolling() { calls.withLock { $0.append("restartPolling") } }
}

/// A subclass with its own initializer calling Apple's designated one.
final class ISO14443Session: NFCTagReaderSession {
    init?(delegate: any NFCTagReaderSessionDelegate) {
        super.init(pollingOption: [.iso14443], delegate: delegate, queue: nil)
    }
}

/// An APDU subclass as ISO 7816 libraries write them.
final class SelectByAID: NFCISO7816APDU {
    init(aid: [UInt8]) {
        super.init(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00, data: Data(aid),
                   expectedResponseLength: 256)
    }
}

@Suite("Core NFC parity: session classes are open, as on iOS")
struct SessionSubclassTests {
    @Test("a subclass with nothing overridden reads a tag like the class it extends")
    func plainSubclassReads() {
        let h = Harness()
        h.backend.place(ntag(message: "D1 01 04 55 04 61 2E 62"), on: "Reader A")
        let delegate = ReadOnlyDelegate()
        let session = PlainNDEFSession(delegate: delegate, queue: h.delegateQueue, invalidateAfterFirstRead: true,
                                       configuration: h.configuration, environment: h.environment)
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(D101045504612E62)", "invalidated(204)"])
    }

    @Test("a test double's overrides are what callers reach through the base class and the protocol")
    func overridesAreDispatched() {
        let h = Harness()
        let delegate = TagDelegate()
        guard let double = RecordingTagSession(pollingOption: .iso14443, delegate: delegate, queue: h.delegateQueue,
                                               configuration: h.configuration, environment: h.environment) else {
            Issue.record("no session")
            return
        }
        let base: NFCReaderSession = double
        let existential: any NFCReaderSessionProtocol = double
        base.begin()
        existential.invalidate(errorMessage: "gone")
        double.restartPolling()
        base.invalidate()
        h.settle(double)
        #expect(double.calls.current == ["begin", "invalidate(gone)", "restartPolling", "invalidate"])
        #expect(delegate.log.summary.isEmpty)  // nothing reached the engine
        #expect(h.backend.connects.isEmpty)
    }

    @Test("Apple's initializers are designated: a subclass initializer can call them (nil for no polling option stays)")
    func designatedInitializers() {
        let delegate = TagDelegate()
        let session = ISO14443Session(delegate: delegate)
        #expect(session?.pollingOption == .iso14443)
        #expect(NFCTagReaderSession(pollingOption: [], delegate: delegate) == nil)
        #expect((session?.delegate as AnyObject?) === delegate)
    }

    @Test("an NFCISO7816APDU subclass goes out byte for byte and equals the same APDU built by the base class")
    func apduSubclass() {
        let h = Harness()
        let card = type4Card("08 11 22 33")
        card.apduResponder = { apdu in apdu.hexString == "00A4040007D276000085010100" ? [0x90, 0x00] : [0x6A, 0x82] }
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        guard case let .iso7816(tag)? = delegate.lastTags.first else {
            Issue.record("expected an .iso7816 tag")
            return
        }
        let connected = Completion<(any Error)?>()
        session.connect(to: delegate.lastTags[0]) { connected.fulfil($0) }
        #expect(connected.wait()! == nil)
        let select = SelectByAID(aid: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])
        #expect(select.isEqual(NFCISO7816APDU(data: Data([UInt8](hex: "00A4040007D276000085010100")!))))
        let reply = Completion<(UInt8, UInt8, (any Error)?)>()
        tag.sendCommand(apdu: select) { reply.fulfil(($1, $2, $3)) }
        let answer = reply.wait()
        #expect(answer?.0 == 0x90 && answer?.1 == 0x00 && answer?.2 == nil)
        session.invalidate()
    }
}
