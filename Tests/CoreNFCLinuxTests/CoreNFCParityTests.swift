@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing

/// Apple's Core NFC declarations that iOS code relies on (docs/corenfc-compatibility.md).
@Suite("Core NFC parity")
struct CoreNFCParityTests {
    /// A tag session with one tag detected and connected.
    private func connectedTag(_ card: FakeCard, _ h: Harness = Harness()) async throws -> (NFCTagReaderSession, NFCTag, Harness) {
        let delegate = TagDelegate()
        let session = try #require(h.tagSession(delegate))
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        let tag = try #require(delegate.lastTags.first)
        try await session.connect(to: tag)
        return (session, tag, h)
    }

    private func miFare(_ tag: NFCTag) throws -> any NFCMiFareTag {
        guard case let .miFare(mifare) = tag else { throw NFCReaderError(.readerErrorInvalidParameter) }
        return mifare
    }

    private func iso7816(_ tag: NFCTag) throws -> any NFCISO7816Tag {
        guard case let .iso7816(card) = tag else { throw NFCReaderError(.readerErrorInvalidParameter) }
        return card
    }

    // MARK: Tags are NSObjects

    @Test("a tag is an NSObject: description names family and UID, isEqual/hash are identity, copy is the tag")
    func tagIsNSObject() async throws {
        let (session, nfcTag, h) = try await connectedTag(ntag("04 A1 B2 C3 D4 E5 80"))
        let tag = try miFare(nfcTag)
        #expect(tag.description.contains("NFCMiFareTag"))
        #expect(tag.description.contains("04A1B2C3D4E580"))
        #expect(tag.isEqual(tag))
        #expect(!tag.isEqual(NSObject()))
        #expect(tag.hash == tag.hash)
        let copyIsTag = (tag.copy() as AnyObject) === tag  // outside #expect: Swift 6.3 crashes expanding it (existential tag)
        #expect(copyIsTag)
        #expect(type(of: tag).supportsSecureCoding)
        #expect(tag.type == .miFare)
        #expect(tag.asNFCMiFareTag() === tag)
        #expect(tag.asNFCISO7816Tag() == nil)
        let ndef: any NFCNDEFTag = tag
        #expect(ndef.isEqual(tag))
        session.invalidate()
        h.settle(session)
    }

    @Test("a tag cannot be decoded from an archive (it is a live connection handle)")
    func tagArchive() async throws {
        let (session, nfcTag, h) = try await connectedTag(type4Card())
        let card = try iso7816(nfcTag)
        #expect(card.type == .iso7816Compatible)
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        card.encode(with: archiver)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(unarchiver.decodeObject(of: NSData.self, forKey: "identifier") as Data? == Data([0x08, 0x11, 0x22, 0x33]))
        #expect(ISO7816SessionTag(coder: unarchiver) == nil)
        session.invalidate()
        h.settle(session)
    }

    @Test("tag.session is the session that detected it, held weakly")
    func sessionWeak() async throws {
        let h = Harness()
        let delegate = TagDelegate()
        var session: NFCTagReaderSession? = h.tagSession(delegate)
        h.backend.place(ntag(), on: "Reader A")
        session?.begin()
        h.settle(session!)
        let tag = try miFare(try #require(delegate.lastTags.first))
        #expect(tag.session === session)
        #expect(tag.session?.isReady == true)
        session?.invalidate()
        h.settle(session!)
        #expect(tag.session?.isReady == false)
        session = nil
        #expect(tag.session == nil)
    }

    // MARK: MIFARE Ultralight replies as iOS shapes them

    @Test("sendMiFareCommand: READ 16 bytes, WRITE ACK 0A, FAST_READ the data, NAK is error 102")
    func ultralightShapes() async throws {
        let card = ntag()
        let (session, nfcTag, h) = try await connectedTag(card)
        let tag = try miFare(nfcTag)
        let read = try await tag.sendMiFareCommand(commandPacket: Data([0x30, 0x04]))
        #expect(read.count == 16)
        let ack = try await tag.sendMiFareCommand(commandPacket: Data([0xA2, 0x04, 1, 2, 3, 4]))
        #expect([UInt8](ack) == [0x0A])
        #expect(ack[0] == 0x0A)  // what Apple's "Creating NFC Tags from Your iPhone" tests
        let fast = try await tag.sendMiFareCommand(commandPacket: Data([0x3A, 0x04, 0x05]))
        #expect([UInt8](fast) == [1, 2, 3, 4, 5, 5, 5, 5])
        for nakked in [Data([0xA2, 0xF0, 1, 2, 3, 4]), Data([0x30, 0xF0])] {
            do {
                _ = try await tag.sendMiFareCommand(commandPacket: nakked)
                Issue.record("a NAK must be an error")
            } catch {
                #expect(code(error) == 102)
            }
        }
        session.invalidate()
        h.settle(session)
    }

    // MARK: iOS 14 Result overloads

    @Test("sendMiFareCommand(commandPacket:resultHandler:) gives .success(data) and .failure(error)")
    func miFareResult() async throws {
        let (session, nfcTag, h) = try await connectedTag(ntag())
        let tag = try miFare(nfcTag)
        let ok = Completion<Result<Data, any Error>>()
        tag.sendMiFareCommand(commandPacket: Data([0xA2, 0x05, 9, 9, 9, 9])) { ok.fulfil($0) }
        #expect(try ok.wait()?.get() == Data([0x0A]))
        #expect(ok.queue == "test.delegate")
        let bad = Completion<Result<Data, any Error>>()
        tag.sendMiFareCommand(commandPacket: Data()) { bad.fulfil($0) }
        guard case let .failure(error)? = bad.wait() else { Issue.record("expected a failure"); return }
        #expect(code(error) == 4)
        let apdu = Completion<Result<NFCISO7816ResponseAPDU, any Error>>()
        tag.sendMiFareISO7816Command(NFCISO7816APDU(data: Data([0x00, 0xB0, 0x00, 0x00, 0x02]))!) { apdu.fulfil($0) }
        guard case let .failure(apduError)? = apdu.wait() else { Issue.record("expected a failure"); return }
        #expect(code(apduError) == 1)
        session.invalidate()
        h.settle(session)
    }

    @Test("sendCommand(apdu:resultHandler:) gives an NFCISO7816ResponseAPDU; errors are .failure")
    func iso7816Result() async throws {
        let card = type4Card()
        card.apduResponder = { apdu in apdu.first == 0x00 ? [0xCA, 0xFE, 0x90, 0x00] : [0x6D, 0x00] }
        let (session, nfcTag, h) = try await connectedTag(card)
        let tag = try iso7816(nfcTag)
        let select = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
                                    data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]), expectedResponseLength: 256)
        let done = Completion<Result<NFCISO7816ResponseAPDU, any Error>>()
        tag.sendCommand(apdu: select) { done.fulfil($0) }
        let response = try #require(try done.wait()?.get())
        #expect(response.payload == Data([0xCA, 0xFE]))
        #expect(response.statusWord1 == 0x90 && response.statusWord2 == 0x00)
        let (data, sw1, sw2) = try await tag.sendCommand(apdu: NFCISO7816APDU(data: Data([0x80, 0xCA, 0x00, 0x00, 0x00]))!)
        #expect(data.isEmpty && sw1 == 0x6D && sw2 == 0x00)
        session.restartPolling()  // the tag object goes stale
        h.settle(session)
        let stale = Completion<Result<NFCISO7816ResponseAPDU, any Error>>()
        tag.sendCommand(apdu: select) { stale.fulfil($0) }
        guard case let .failure(error)? = stale.wait() else { Issue.record("expected a failure"); return }
        #expect(code(error) == 104)
        session.invalidate()
        h.settle(session)
    }

    @Test("NFCISO7816ResponseAPDU(data:) splits data and status word", arguments: [
        ("CA FE 90 00", "CAFE", UInt8(0x90), UInt8(0x00)),
        ("6A 82", "", UInt8(0x6A), UInt8(0x82)),
        ("90", nil, UInt8(0), UInt8(0)),
        ("", nil, UInt8(0), UInt8(0)),
    ] as [(String, String?, UInt8, UInt8)])
    func responseAPDU(raw: String, payload: String?, sw1: UInt8, sw2: UInt8) {
        let response = NFCISO7816ResponseAPDU(data: Data([UInt8](hex: raw)!))
        #expect(response.payload.map { $0.map { String(format: "%02X", $0) }.joined() } == payload)
        #expect(response.statusWord1 == sw1)
        #expect(response.statusWord2 == sw2)
    }

    // MARK: async forms

    @Test("async forms: connect, queryNDEFStatus, writeNDEF, readNDEF, writeLock, sendMiFareISO7816Command")
    func asyncForms() async throws {
        let h = Harness()
        let delegate = ReadWriteDelegate()
        let session = h.ndefSession(delegate)
        let card = ntag(message: "01")
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        let tag = try #require(delegate.lastTags.first)
        try await session.connect(to: tag)
        let (status, capacity) = try await tag.queryNDEFStatus()
        #expect(status == .readWrite && capacity == 137)
        try await tag.writeNDEF(ndefMessage([0xAB, 0xCD]))
        #expect(payload(try await tag.readNDEF()) == [0xAB, 0xCD])
        try await tag.writeLock()
        #expect(card.locked)
        let mifare = try #require(tag as? any NFCMiFareTag)
        await #expect(throws: NFCReaderError.self) {
            _ = try await mifare.sendMiFareISO7816Command(NFCISO7816APDU(data: Data([0x00, 0xB0, 0x00, 0x00]))!)
        }
        session.invalidate()
        h.settle(session)
    }

    // MARK: NFCNDEFPayload: subclassable, Self factories

    @Test("factories return the receiving subclass; subclasses inherit the designated initializers")
    func payloadSubclass() throws {
        let uri = try #require(TaggedPayload.wellKnownTypeURIPayload(string: "https://example.com"))
        #expect(type(of: uri) == TaggedPayload.self)
        #expect(uri.label == "plain")
        #expect(uri.wellKnownTypeURIPayload() == URL(string: "https://example.com"))
        let text = try #require(TaggedPayload.wellKnownTypeTextPayload(string: "hi", locale: Locale(identifier: "en_US")))
        #expect(text.wellKnownTypeTextPayload().0 == "hi")
        let url = try #require(TaggedPayload.wellKnownTypeURIPayload(url: URL(string: "tel:123")!))
        #expect(url.payload == Data([0x05]) + Data("123".utf8))
        let media = try #require(TaggedPayload.mediaPayload(mime: "text/plain", body: Data("x".utf8)))
        #expect(type(of: media) == TaggedPayload.self)
        #expect(media.typeNameFormat == .media && media.type == Data("text/plain".utf8))
        let chunked = TaggedPayload(format: .media, type: Data("a/b".utf8), identifier: Data(), payload: Data(count: 10), chunkSize: 4)
        #expect(type(of: chunked.copy()) == TaggedPayload.self)
        #expect(NFCNDEFPayload.wellKnownTypeURIPayload(string: "") == nil)
    }

    @Test("payloads and messages compare by content and copy deeply")
    func payloadEquality() throws {
        let a = NFCNDEFPayload(format: .nfcWellKnown, type: Data("T".utf8), identifier: Data(), payload: Data([1]))
        let b = NFCNDEFPayload(format: .nfcWellKnown, type: Data("T".utf8), identifier: Data(), payload: Data([1]))
        let c = NFCNDEFPayload(format: .nfcWellKnown, type: Data("T".utf8), identifier: Data(), payload: Data([2]))
        #expect(a == b && a.hash == b.hash)
        #expect(a != c)
        let message = NFCNDEFMessage(records: [a, c])
        let copy = try #require(message.copy() as? NFCNDEFMessage)
        #expect(copy == message && copy !== message && copy.records[0] !== a)
        #expect(message.description.contains("2 record"))
    }

    // MARK: NSSecureCoding

    @Test("NFCNDEFMessage and NFCNDEFPayload round-trip through NSKeyedArchiver with secure coding")
    func secureCoding() throws {
        #expect(NFCNDEFMessage.supportsSecureCoding && NFCNDEFPayload.supportsSecureCoding)
        let message = NFCNDEFMessage(records: [
            try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/a")),
            NFCNDEFPayload(format: .media, type: Data("image/png".utf8), identifier: Data([0x69, 0x64]), payload: Data(count: 300),
                           chunkSize: 100),
        ])
        let archive = try NSKeyedArchiver.archivedData(withRootObject: message, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NFCNDEFMessage.self, from: archive))
        #expect(back == message)
        #expect(back.records[1].chunkSize == 100)
        #expect(back.length == message.length)
        let record = try #require(message.records.first)
        let single = try NSKeyedArchiver.archivedData(withRootObject: record, requiringSecureCoding: true)
        #expect(try NSKeyedUnarchiver.unarchivedObject(ofClass: NFCNDEFPayload.self, from: single) == record)
    }

    @Test("an archive with a TNF outside 0…6 or a missing field decodes to nil, not a trap")
    func secureCodingBadInput() throws {
        for (format, dropPayload) in [(9, false), (-1, false), (1, true)] {
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            archiver.encode(format, forKey: "typeNameFormat")
            for key in ["type", "identifier", "payload"] where key != "payload" || !dropPayload {
                archiver.encodeBytes([0x41], length: 1, forKey: key)
            }
            archiver.finishEncoding()
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            #expect(NFCNDEFPayload(coder: unarchiver) == nil)
        }
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(2, forKey: "recordCount")
        archiver.finishEncoding()
        #expect(NFCNDEFMessage(coder: try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)) == nil)
    }
}

/// A subclass as iOS code writes one: no initializers of its own.
final class TaggedPayload: NFCNDEFPayload {
    var label = "plain"
}

extension NFCNDEFPayload {
    /// A `Self`-returning factory as iOS code writes one, calling the designated initializer.
    class func mediaPayload(mime: String, body: Data) -> Self? {
        guard !mime.isEmpty else { return nil }
        return .init(format: .media, type: Data(mime.utf8), identifier: Data(), payload: body)
    }
}

/// A mock ISO 15693 tag as iOS test code writes one: an NSObject adopting the protocol.
final class MockISO15693Tag: NSObject, NFCISO15693Tag {
    static var supportsSecureCoding: Bool { true }
    override init() { super.init() }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {}
    func copy(with zone: NSZone? = nil) -> Any { self }
    var type: __NFCTagType { .iso15693 }
    var session: (any NFCReaderSessionProtocol)? { nil }
    var isAvailable: Bool { true }
    var identifier: Data { Data([0xE0, 0x04, 1, 2, 3, 4, 5, 6]) }
    var icManufacturerCode: Int { 4 }
    var icSerialNumber: Data { Data([1, 2, 3, 4, 5, 6]) }
    func queryNDEFStatus(completionHandler: @escaping (NFCNDEFStatus, Int, (any Error)?) -> Void) {
        completionHandler(.notSupported, 0, nil)
    }
    func readNDEF(completionHandler: @escaping (NFCNDEFMessage?, (any Error)?) -> Void) { completionHandler(nil, nil) }
    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping ((any Error)?) -> Void) { completionHandler(nil) }
    func writeLock(completionHandler: @escaping ((any Error)?) -> Void) { completionHandler(nil) }
}

@Suite("Core NFC parity: tag families Linux never produces")
struct UnproducedTagFamilyTests {
    @Test("ISO 15693 commands compile as on iOS and answer error 1, asynchronously")
    func iso15693() async throws {
        let tag: any NFCISO15693Tag = MockISO15693Tag()
        let done = Completion<(Data, (any Error)?)>()
        tag.readSingleBlock(requestFlags: [.highDataRate, .address], blockNumber: 0) { done.fulfil(($0, $1)) }
        let (data, error) = try #require(done.wait())
        #expect(data.isEmpty && code(error) == 1)
        await #expect(throws: NFCReaderError.self) {
            _ = try await tag.readMultipleBlocks(requestFlags: .highDataRate, blockRange: NSRange(location: 0, length: 4))
        }
        #expect(NFCISO15693RequestFlag.highDataRate.rawValue == 2 && NFCISO15693RequestFlag.address.rawValue == 0x20)
        #expect(NFCTag.iso15693(tag).isAvailable)
    }
}
