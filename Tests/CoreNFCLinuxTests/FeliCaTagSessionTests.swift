@testable import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import ReaderCore
import TagEmulation
import Testing

/// A tag reader session's delegate that hands the first batch of tags to the test.
// @unchecked: `tags` and `error` are written on the session queue before `ready` is signalled, read after.
final class FeliCaDelegate: NFCTagReaderSessionDelegate, @unchecked Sendable {
    let ready = DispatchSemaphore(value: 0)
    var tags: [NFCTag] = []
    var error: (any Error)?
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        self.tags = tags
        ready.signal()
    }
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        if self.error == nil, tags.isEmpty { self.error = error; ready.signal() }
    }
}

/// Core NFC's `NFCFeliCaTag` on the virtual stack: a transit-shaped FeliCa Standard card on an
/// emulated ACR122U (direct transmit) and a Lite-S on a transparent-exchange reader, as Apple
/// documents the calls (docs/tags-and-readers.md §9.5).
@Suite("NFCFeliCaTag over the virtual reader backend", .serialized)
struct FeliCaTagSessionTests {
    static func session(_ backend: VirtualReaderBackend, codes: [[UInt8]], delegate: FeliCaDelegate) -> NFCTagReaderSession {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.feliCaSystemCodes = codes
        let environment = NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() })
        return NFCTagReaderSession(pollingOption: [.iso18092], delegate: delegate, configuration: configuration, environment: environment)!
    }

    /// A connected FeliCa tag of a session over `card`.
    static func connected(_ card: VirtualFeliCaCard, codes: [[UInt8]], profile: PCSCReaderProfile = .acr122u)
        throws -> (NFCTagReaderSession, any NFCFeliCaTag, EmulatedPCSCReader) {
        let backend = VirtualReaderBackend(readerNames: [])
        backend.addReader("Virtual F", profile: profile)
        let delegate = FeliCaDelegate()
        let session = session(backend, codes: codes, delegate: delegate)
        session.begin()
        backend.place(card, on: "Virtual F")
        #expect(delegate.ready.wait(timeout: .now() + 10) == .success)
        guard case let .feliCa(tag)? = delegate.tags.first else { throw TagError.unsupported("no FeliCa tag: \(delegate.tags), \(String(describing: delegate.error))") }
        let connected = Completion<(any Error)?>()
        session.connect(to: .feliCa(tag)) { connected.fulfil($0) }
        #expect(connected.wait()! == nil)
        return (session, tag, try #require(backend.reader(named: "Virtual F")))
    }

    @Test("transit card: the first declared code it answers is selected; requestService and readWithoutEncryption as Apple documents")
    func transitCard() async throws {
        let card = VirtualFeliCaCard.transitCard()
        // 12FC is not on the card: Polling skips it and selects 0003.
        let (session, tag, reader) = try Self.connected(card, codes: [[0x12, 0xFC], [0x00, 0x03]])
        defer { session.invalidate() }
        #expect(tag.currentSystemCode == Data([0x00, 0x03]))
        #expect(tag.currentIDm == Data(card.idm))
        #expect(tag.type == .feliCa)

        let versions = Completion<([Data], (any Error)?)>()
        tag.requestService(nodeCodeList: [Data([0x0F, 0x09]), Data([0x48, 0x18])]) { versions.fulfil(($0, $1)) }
        let v = try #require(versions.wait())
        #expect(v.1 == nil && v.0 == [Data([0x00, 0x00]), Data([0xFF, 0xFF])])

        reader.plan.reset()
        let read = Completion<(Int, Int, [Data], (any Error)?)>()
        tag.readWithoutEncryption(serviceCodeList: [Data([0x0F, 0x09])], blockList: [Data([0x80, 0x00]), Data([0x80, 0x01])]) {
            read.fulfil(($0, $1, $2, $3))
        }
        let r = try #require(read.wait())
        #expect(r.3 == nil && r.0 == 0 && r.1 == 0)
        #expect(r.2 == [Data(card.block(0, store: 1)!), Data(card.block(1, store: 1)!)])
        // One exchange: the frame inside an ACR122U direct transmit (InCommunicateThru).
        #expect(reader.plan.log == [[UInt8](hex: "FF 00 00 00 14 D4 42 12 06 01 01 12 01 2A 0B 3C 4D 01 0F 09 02 80 00 80 01")!])

        // Status flags come back as numbers with no error (a block past the service).
        let (f1, f2, blocks) = try await tag.readWithoutEncryption(serviceCodeList: [Data([0x0F, 0x09])], blockList: [Data([0x80, 20])])
        #expect(f1 == 0x01 && f2 == 0xA8 && blocks.isEmpty)

        let codes = try await tag.requestSystemCode()
        #expect(codes == [Data([0x00, 0x03]), Data([0xFE, 0x00])])
        #expect(try await tag.requestResponse() == 0)

        // iOS 14 result form, and Polling another declared system / an undeclared one.
        let result = Completion<Result<(NFCFeliCaStatusFlag, [Data]), any Error>>()
        tag.readWithoutEncryption(serviceCodeList: [Data([0x8B, 0x00])], blockList: [Data([0x80, 0x00])]) { result.fulfil($0) }
        guard case let .success((flags, data))? = result.wait() else { Issue.record("result form failed"); return }
        #expect(flags.statusFlag1 == 0 && flags.statusFlag2 == 0 && data == [Data(card.block(0, store: 0)!)])

        await #expect(throws: NFCReaderError.self) {
            _ = try await tag.polling(systemCode: Data([0xFE, 0x00]), requestCode: .systemCode, timeSlot: .max1)
        }
        do {
            _ = try await tag.polling(systemCode: Data([0xFE, 0x00]), requestCode: .systemCode, timeSlot: .max1)
        } catch let error as NFCReaderError {
            #expect(error.code == .readerErrorSecurityViolation)
        }
    }

    @Test("sendFeliCaCommand adds and strips LEN; a packet for another IDm is a security violation; bad lists are invalid parameters")
    func rawCommandsAndChecks() async throws {
        let card = VirtualFeliCaCard.transitCard()
        let (session, tag, _) = try Self.connected(card, codes: [[0x00, 0x03], [0xFE, 0x00]])
        defer { session.invalidate() }
        let reply = try await tag.sendFeliCaCommand(commandPacket: Data([0x04] + card.idm))
        #expect(reply == Data([0x05] + card.idm + [0x00]))
        do {
            _ = try await tag.sendFeliCaCommand(commandPacket: Data([0x04] + [UInt8](repeating: 0x77, count: 8)))
            Issue.record("another IDm was accepted")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerErrorSecurityViolation)
        }
        do {
            _ = try await tag.readWithoutEncryption(serviceCodeList: [], blockList: [Data([0x80, 0x00])])
            Issue.record("an empty service list was accepted")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerErrorInvalidParameter)
        }
        // Polling a declared system switches the IDm.
        let (pmm, data) = try await tag.polling(systemCode: Data([0xFE, 0x00]), requestCode: .systemCode, timeSlot: .max1)
        #expect(pmm == Data(card.pmm) && data == Data([0xFE, 0x00]))
        #expect(tag.currentSystemCode == Data([0xFE, 0x00]) && tag.currentIDm.first == 0x11)
    }

    @Test("a Lite-S on a transparent-exchange reader: NDEF through NFCNDEFTag, FF C2 session opened once")
    func liteSNDEF() async throws {
        let message = try NDEFMessage(records: [.uri("https://example.com/felica")]).encoded()
        let card = VirtualFeliCaCard.liteS(ndef: message)
        let (session, tag, reader) = try Self.connected(card, codes: [[0x12, 0xFC]], profile: .springcard)
        defer { session.invalidate() }
        #expect(tag.currentSystemCode == Data([0x12, 0xFC]))
        let read = try await tag.readNDEF()
        #expect(read.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/felica")
        #expect(reader.plan.log.filter { $0.starts(with: [0xFF, 0xC2, 0x00, 0x00]) }.count == 1)
        #expect(reader.plan.log.filter { $0.starts(with: [0xFF, 0xC2, 0x00, 0x02]) }.count == 1)
        let (status, capacity) = try await tag.queryNDEFStatus()
        #expect(status == .readWrite && capacity == 208)
    }

    @Test(".iso18092 without declared system codes ends the session with a security violation")
    func noSystemCodes() {
        let backend = VirtualReaderBackend(readerNames: ["Virtual F"])
        let delegate = FeliCaDelegate()
        let session = Self.session(backend, codes: [], delegate: delegate)
        session.begin()
        #expect(delegate.ready.wait(timeout: .now() + 10) == .success)
        #expect((delegate.error as? NFCReaderError)?.code == .readerErrorSecurityViolation)
    }

    @Test("system code lists: hex pairs separated by commas or spaces; FF and odd lengths are refused")
    func systemCodeList() {
        #expect(NFCSessionConfiguration.feliCaSystemCodes(fromList: "12FC,0003 fe00") == [[0x12, 0xFC], [0x00, 0x03], [0xFE, 0x00]])
        #expect(NFCSessionConfiguration.feliCaSystemCodes(fromList: "") == [])
        #expect(NFCSessionConfiguration.feliCaSystemCodes(fromList: "FFFF") == nil)
        #expect(NFCSessionConfiguration.feliCaSystemCodes(fromList: "12F") == nil)
    }
}

@Suite("NDEF sessions read Type 3 tags")
struct FeliCaNDEFSessionTests {
    @Test("an NDEF read session reads a Lite-S on an ACR122U: message, product from PMm, capacity, exchange count")
    func readSession() async throws {
        let backend = VirtualReaderBackend(readerNames: [])
        backend.addReader("Virtual F", profile: .acr122u)
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.collectTagDetails = true
        let environment = NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() })
        let session = NFCNDEFReaderSession(configuration: configuration, environment: environment)
        var events = session.events.makeAsyncIterator()
        let message = try NDEFMessage(records: [.uri("https://example.com/" + String(repeating: "t", count: 70))]).encoded()
        backend.place(VirtualFeliCaCard.liteS(ndef: message), on: "Virtual F")
        var report: NFCTagReport?
        while report == nil, let event = try await events.next() {
            if case let .tagReport(r) = event { report = r }
        }
        let r = try #require(report)
        #expect(r.error == nil)
        #expect(r.ndefBytes == message)
        #expect(r.tag.technology == .feliCa)
        #expect(r.details?.product == "FeliCa Lite-S RC-S966")
        #expect(r.details?.capacity == 208 && r.details?.status == .readWrite)
        // Polling 12FC, block 0, ⌈6 blocks / Nbr 4⌉ = 2 reads, each one direct transmit.
        let frames = try #require(backend.reader(named: "Virtual F")).plan.log.filter { $0.starts(with: [0xFF, 0x00, 0x00, 0x00]) }
        #expect(frames.count == 4, "\(frames.map { $0.hexString(separator: " ") })")
        session.invalidate()
    }
}
