@testable import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import ReaderCore
import TagEmulation
import Testing

/// The whole stack in-process: Core NFC sessions → VirtualReaderBackend → emulated PC/SC reader →
/// Type 2 / Type 4 tag logic → virtual tags, with the real NDEF codec. No fakes above the chips.
@Suite("Sessions over the virtual reader backend")
struct VirtualStackTests {
    static func environment(_ backend: VirtualReaderBackend) -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() })
    }

    static func ntag213(_ uri: String, uid: [UInt8] = VirtualType2Tag.defaultUID) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: uid, ndef: try NDEFMessage(records: [.uri(uri)]).encoded())
    }

    @Test("multi-read: NTAG213 and Type 4 tags read through the real tag logic, with details and feedback")
    func multiRead() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A", "Virtual B"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.collectTagDetails = true
        let session = NFCNDEFReaderSession(configuration: configuration, environment: Self.environment(backend))
        var events = session.events.makeAsyncIterator()
        backend.place(try Self.ntag213("https://example.com/a"), on: "Virtual A")
        let type4 = VirtualType4Tag(version: .v2, ndef: try NDEFMessage(records: [try .text("hi", language: "en")]).encoded())
        backend.place(type4, on: "Virtual B")
        var reports: [String: NFCTagReport] = [:]
        while reports.count < 2, let event = try await events.next() {
            if case let .tagReport(r) = event { reports[r.tag.reader.name] = r }
        }
        let a = try #require(reports["Virtual A"])
        #expect(a.error == nil)
        #expect(a.message?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/a")
        #expect(a.details?.product == "NTAG213")
        // 144-byte data area − Lock Control TLV (5) − NDEF TLV header (2).
        #expect(a.details?.capacity == 137)
        #expect(a.details?.status == .readWrite)
        #expect(a.tag.technology == .type2)
        let b = try #require(reports["Virtual B"])
        #expect(b.message?.records.first?.wellKnownTypeTextPayload().0 == "hi")
        #expect(b.details?.product == "Type 4 (mapping 2.0)")
        #expect(b.tag.technology == .type4)
        #expect(backend.feedbackLog.map(\.feedback) == [.success, .success])
        session.invalidate()
    }

    /// Reads one tag in a fresh multi-read session and returns its report.
    static func readReport(_ backend: VirtualReaderBackend, place tag: VirtualTag) async throws -> NFCTagReport? {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        let session = NFCNDEFReaderSession(configuration: configuration, environment: environment(backend))
        defer { session.invalidate() }
        var events = session.events.makeAsyncIterator()
        backend.place(tag, on: "Virtual A")
        while let event = try await events.next() {
            if case let .tagReport(r) = event { return r }
        }
        return nil
    }

    @Test("a tag pulled away at every exchange of a read: a failure report, never a message")
    func tagPulledMidRead() async throws {
        let uri = "https://example.com/" + String(repeating: "x", count: 100)
        // A clean read first, to learn how many exchanges a read takes.
        let clean = VirtualReaderBackend(readerNames: ["Virtual A"])
        let whole = try #require(try await Self.readReport(clean, place: try Self.ntag213(uri)))
        #expect(whole.message != nil)
        let exchanges = try #require(clean.reader(named: "Virtual A")).plan.exchangeCount
        #expect(exchanges >= 2)
        for cut in 0..<exchanges {
            let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
            try #require(backend.reader(named: "Virtual A")).plan.reset(leaveFieldAfter: cut)
            let r = try #require(try await Self.readReport(backend, place: try Self.ntag213(uri)))
            #expect(r.message == nil, "cut after \(cut) of \(exchanges) exchanges")
            #expect(r.error?.code == .readerTransceiveErrorTagConnectionLost, "cut after \(cut): \(String(describing: r.error))")
            #expect(backend.feedbackLog.map(\.feedback) == [.failure])
        }
    }

    @Test("single-read over the virtual backend ends with 204 after the first message")
    func singleRead() throws {
        final class Delegate: NSObject, NFCNDEFReaderSessionDelegate {
            let done = DispatchSemaphore(value: 0)
            var uris: [String] = []
            var code: Int?
            func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
                uris += messages.flatMap(\.records).compactMap { $0.wellKnownTypeURIPayload()?.absoluteString }
            }
            func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
                code = (error as? NFCReaderError)?.code.rawValue
                done.signal()
            }
        }
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        backend.place(try Self.ntag213("https://example.com/single"), on: "Virtual A")
        let delegate = Delegate()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: true,
                                           configuration: NFCSessionConfiguration(), environment: Self.environment(backend))
        session.begin()
        #expect(delegate.done.wait(timeout: .now() + 10) == .success)
        #expect(delegate.uris == ["https://example.com/single"])
        #expect(delegate.code == 204)
    }
}
