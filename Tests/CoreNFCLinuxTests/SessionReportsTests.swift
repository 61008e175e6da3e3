@testable import CoreNFCLinux
import Foundation
import NDEF
import ReaderCore
import Synchronization
import NFCTags
import TagEmulation
import Testing

/// What sessions report beyond Core NFC's surface, for tools that would otherwise wrap the
/// backends: the readers at the start, the reader service lost and restored, the connected tag as
/// its reader saw it, and the report's message decoded once (docs/corenfc-compatibility.md, "Linux additions").
@Suite("Session reports (Linux additions)")
struct SessionReportsTests {
    static func environment(_ backend: VirtualReaderBackend) -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() },
                             slot: NFCSessionSlot())
    }

    /// A read session on `backend` with no time limit; `adjust` changes the rest of its configuration.
    static func untimedSession(on backend: VirtualReaderBackend,
                               _ adjust: (inout NFCSessionConfiguration) -> Void = { _ in }) -> NFCNDEFReaderSession {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        adjust(&configuration)
        return NFCNDEFReaderSession(configuration: configuration, environment: environment(backend))
    }

    static func ntag213(_ uri: String, uid: [UInt8] = VirtualType2Tag.defaultUID) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: uid, ndef: try NDEFMessage(records: [.uri(uri)]).encoded())
    }

    /// Records what the session reports when its delegate hears that it became active.
    final class ActiveDelegate: NSObject, NFCNDEFReaderSessionDelegate, Sendable {
        let active = DispatchSemaphore(value: 0)
        private let readers = Mutex<[String]>([])
        var readersWhenActive: [String] { readers.withLock { $0 } }
        func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
            let names = session.readersAtStart.map(\.name)
            readers.withLock { $0 = names }
            active.signal()
        }
        func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
        func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {}
    }

    // MARK: Readers at the start

    @Test("readersAtStart: the readers the filter selected, valid from readerSessionDidBecomeActive",
          arguments: [
              (NFCReaderFilter.all, ["Virtual A", "Virtual B", "Desk C"]),
              (.nameContains("virtual b"), ["Virtual B"]),
              (.nameContainsAny(["Desk", "Virtual A"]), ["Virtual A", "Desk C"]),
              (.exactName("Desk C"), ["Desk C"]),
          ])
    func readersAtStartFollowTheFilter(_ filter: NFCReaderFilter, _ expected: [String]) throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A", "Virtual B", "Desk C"])
        var configuration = NFCSessionConfiguration()
        configuration.readerFilter = filter
        let delegate = ActiveDelegate()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false,
                                           configuration: configuration, environment: Self.environment(backend))
        #expect(session.readersAtStart.isEmpty, "nothing is known before begin()")
        session.begin()
        defer { session.invalidate() }
        #expect(delegate.active.wait(timeout: .now() + 10) == .success)
        #expect(delegate.readersWhenActive == expected)
        #expect(session.readersAtStart.map(\.name) == expected)
        #expect(session.readersAtStart.allSatisfy { $0.backend == .virtual })
    }

    @Test("readersAtStart: a reader plugged in later joins as .readerAdded, not in the start list")
    func laterReaderNotInStartList() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let session = Self.untimedSession(on: backend)
        var events = session.events.makeAsyncIterator()
        #expect(try await Self.next(&events) { if case let .readerAdded(r) = $0, r.name == "Virtual A" { true } else { false } })
        backend.addReader("Virtual B")
        #expect(try await Self.next(&events) { if case let .readerAdded(r) = $0, r.name == "Virtual B" { true } else { false } })
        #expect(session.readersAtStart.map(\.name) == ["Virtual A"])
        session.invalidate()
    }

    // MARK: Service lost and restored

    /// Reads events until one satisfies `match`; false when the stream ended first.
    static func next(_ events: inout NFCSessionEvents.AsyncIterator, _ match: (NFCSessionEvent) -> Bool) async throws -> Bool {
        while let event = try await events.next() {
            if match(event) { return true }
        }
        return false
    }

    /// The service and reader events in a compact form, others nil.
    static func describe(_ event: NFCSessionEvent) -> String? {
        switch event {
        case let .serviceLost(kind, error): return "lost \(kind.rawValue): \(error.description)"
        case let .serviceRestored(kind): return "restored \(kind.rawValue)"
        case let .readerAdded(r): return "+\(r.name)"
        case let .readerRemoved(r): return "-\(r.name)"
        default: return nil
        }
    }

    @Test("kiosk-style session: service lost then restored arrive in order, with the backend kind, readers between")
    func serviceLostAndRestoredInOrder() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let session = Self.untimedSession(on: backend) { $0.readerRemovalEndsSession = false }
        var events = session.events.makeAsyncIterator()
        var seen: [String] = []
        func collect(until last: String) async throws {
            while let event = try await events.next() {
                guard let text = Self.describe(event) else { continue }
                seen.append(text)
                if text == last { return }
            }
        }
        try await collect(until: "+Virtual A")
        backend.loseService()
        try await collect(until: "-Virtual A")
        backend.restoreService()
        try await collect(until: "+Virtual A")
        backend.loseService()
        try await collect(until: "-Virtual A")
        #expect(seen == [
            "+Virtual A",
            "lost virtual: the virtual reader service stopped", "-Virtual A",
            "restored virtual", "+Virtual A",
            "lost virtual: the virtual reader service stopped", "-Virtual A",
        ])
        #expect(session.isReady, "a kiosk-style session outlives its service")
        session.invalidate()
    }

    @Test("iOS-style session: the service-lost event comes before the end (202)")
    func serviceLostEndsIOSStyleSessionAfterTheEvent() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let session = Self.untimedSession(on: backend)
        var events = session.events.makeAsyncIterator()
        var seen: [String] = []
        var ending: NFCReaderError?
        do {
            while let event = try await events.next() {
                guard let text = Self.describe(event) else { continue }
                seen.append(text)
                if text == "+Virtual A" { backend.loseService() }
            }
        } catch let error as NFCReaderError {
            ending = error
        }
        #expect(seen == ["+Virtual A", "lost virtual: the virtual reader service stopped", "-Virtual A"])
        #expect(ending?.code == .readerSessionInvalidationErrorSessionTerminatedUnexpectedly)
    }

    // MARK: The connected tag

    /// Connects to the first tag of a read-write session and records what the session reports.
    final class ConnectingDelegate: NSObject, NFCNDEFReaderSessionDelegate, Sendable {
        private struct Seen {
            var beforeConnect: DetectedTag?
            var afterConnect: DetectedTag?
            var connectError: (any Error)?
        }
        let done = DispatchSemaphore(value: 0)
        private let seen = Mutex(Seen())
        var beforeConnect: DetectedTag? { seen.withLock { $0.beforeConnect } }
        var afterConnect: DetectedTag? { seen.withLock { $0.afterConnect } }
        var connectError: (any Error)? { seen.withLock { $0.connectError } }
        func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
        func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
            let before = session.connectedDetectedTag
            seen.withLock { $0.beforeConnect = before }
            // Sessions are not Sendable (as in Apple's Core NFC); the handler only reads a property.
            nonisolated(unsafe) let session = session
            session.connect(to: tags[0]) { error in
                let after = session.connectedDetectedTag
                self.seen.withLock { $0.connectError = error; $0.afterConnect = after }
                self.done.signal()
            }
        }
        func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {}
    }

    @Test("read-write session: connectedDetectedTag is the tag connect(to:) opened (reader, UID, technology)")
    func connectedTagInReadWriteSession() throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A", "Virtual B"])
        let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
        let delegate = ConnectingDelegate()
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false,
                                           configuration: configuration, environment: Self.environment(backend))
        session.begin()
        let placed = try #require(backend.place(try Self.ntag213("https://example.com/c", uid: uid), on: "Virtual B"))
        #expect(delegate.done.wait(timeout: .now() + 10) == .success)
        #expect(delegate.connectError == nil)
        #expect(delegate.beforeConnect == nil)
        let connected = try #require(delegate.afterConnect)
        #expect(connected == placed)
        #expect(connected.reader.name == "Virtual B")
        #expect(connected.uid == uid)
        #expect(connected.technology == .type2)
        #expect(session.lastDetectedTag == placed)
        session.invalidate()
        let end = Date().addingTimeInterval(10)
        while session.connectedDetectedTag != nil, Date() < end { usleep(10_000) }
        #expect(session.connectedDetectedTag == nil, "no connection once the session ended")
        #expect(session.lastDetectedTag == placed, "the last tag is kept after the end")
    }

    /// Connects to the first tag of a tag session.
    final class TagSessionDelegate: NSObject, NFCTagReaderSessionDelegate, Sendable {
        let done = DispatchSemaphore(value: 0)
        private let connectedTag = Mutex<DetectedTag?>(nil)
        var connected: DetectedTag? { connectedTag.withLock { $0 } }
        func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}
        func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {}
        func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
            // Sessions are not Sendable (as in Apple's Core NFC); the handler only reads a property.
            nonisolated(unsafe) let session = session
            session.connect(to: tags[0]) { _ in
                let connected = session.connectedDetectedTag
                self.connectedTag.withLock { $0 = connected }
                self.done.signal()
            }
        }
    }

    @Test("tag session: connectedDetectedTag names the Type 4 card connect(to:) opened")
    func connectedTagInTagSession() throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let delegate = TagSessionDelegate()
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil,
                                                       configuration: configuration, environment: Self.environment(backend)))
        session.begin()
        let placed = try #require(backend.place(VirtualType4Tag(version: .v2), on: "Virtual A"))
        #expect(delegate.done.wait(timeout: .now() + 10) == .success)
        #expect(delegate.connected == placed)
        #expect(delegate.connected?.technology == .type4)
        session.invalidate()
    }

    @Test("read-only session: no connected tag is reported, the last detected tag is")
    func readOnlySessionHasNoConnectedTag() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let session = Self.untimedSession(on: backend)
        var events = session.events.makeAsyncIterator()
        let placed = backend.place(try Self.ntag213("https://example.com/r"), on: "Virtual A")
        #expect(try await Self.next(&events) { if case .tagReport = $0 { true } else { false } })
        #expect(session.connectedDetectedTag == nil)
        #expect(session.lastDetectedTag == placed)
        session.invalidate()
    }

    // MARK: The decoded message

    /// Reads one tag holding `ndef` (raw NDEF bytes) in a fresh read session and returns its report.
    static func report(holding ndef: [UInt8]) async throws -> NFCTagReport? {
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        let session = Self.untimedSession(on: backend)
        defer { session.invalidate() }
        var events = session.events.makeAsyncIterator()
        backend.place(try VirtualType2Tag(product: .ntag213, uid: VirtualType2Tag.defaultUID, ndef: ndef), on: "Virtual A")
        while let event = try await events.next() {
            if case let .tagReport(r) = event { return r }
        }
        return nil
    }

    @Test("a report's ndefMessage is its bytes decoded (relaxed), matching the Core NFC message")
    func reportCarriesDecodedMessage() async throws {
        let bytes = try NDEFMessage(records: [.uri("https://example.com/m"), try .text("hi", language: "en")]).encoded()
        let report = try #require(try await Self.report(holding: bytes))
        #expect(report.ndefBytes == bytes)
        let decoded = try #require(report.ndefMessage)
        #expect(decoded == (try NDEFMessage(bytes: bytes, mode: .relaxed)))
        #expect(decoded.records.count == report.message?.records.count)
        #expect(report.ndefDecodingError == nil)
    }

    @Test("relaxed decoding, as tags are read: a message strict mode refuses still decodes")
    func reportDecodesRelaxed() async throws {
        // MB missing on the only record: strict refuses, relaxed accepts.
        let bytes: [UInt8] = [0x51, 0x01, 0x02, 0x55, 0x05, 0x31]
        #expect(throws: NDEFError.self) { try NDEFMessage(bytes: bytes, mode: .strict) }
        let report = try #require(try await Self.report(holding: bytes))
        #expect(report.ndefMessage == (try NDEFMessage(bytes: bytes, mode: .relaxed)))
    }

    @Test("malformed bytes: ndefMessage nil, ndefDecodingError says why; empty bytes: neither")
    func malformedAndEmpty() async throws {
        let malformed: [UInt8] = [0xD1, 0x01, 0x40]
        let report = try #require(try await Self.report(holding: malformed))
        #expect(report.ndefBytes == malformed)
        #expect(report.ndefMessage == nil)
        #expect(report.ndefDecodingError is NDEFError)
        #expect(report.message == nil)

        let empty = NFCTagReport(tag: report.tag, ndefBytes: [])
        #expect(empty.ndefMessage == nil)
        #expect(empty.ndefDecodingError == nil)
        let none = NFCTagReport(tag: report.tag)
        #expect(none.ndefMessage == nil)
        #expect(none.ndefDecodingError == nil)
    }

    @Test("a report built by hand decodes its bytes too; Core NFC's message is made from that decoding")
    func handBuiltReportDecodes() throws {
        let tag = DetectedTag(reader: ReaderInfo(name: "R", backend: .virtual), technology: .type2,
                              uid: [1, 2, 3, 4, 5, 6, 7], atr: [], historicalBytes: [], presence: 1)
        let first = NDEFMessage(records: [.uri("https://example.com/1")])
        let report = NFCTagReport(tag: tag, ndefBytes: try first.encoded())
        #expect(report.ndefMessage == first)
        #expect(report.message?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/1")
        let malformed = NFCTagReport(tag: tag, ndefBytes: [0xD1, 0x01, 0x40])
        #expect(malformed.ndefMessage == nil)
        #expect(malformed.ndefDecodingError is NDEFError)
        #expect(malformed.message == nil)
    }
}
