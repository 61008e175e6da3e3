@testable import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import ReaderCore
import TagEmulation
import Testing
import TestSupport

/// Issue 12: every session path the commands use (scan / inventory / kiosk: a read with details;
/// write: query, write, read back, lock, query) costs exactly the exchanges of the library's own
/// operations on a fresh connection — the tag's details come from what the read learned.
/// Counted at the emulated reader (ACR122U personality, as through pcscd without the UID read,
/// which the PC/SC monitor does; see SystemTests.CLIExchangeCountTests for that).
@Suite("Exchange counts of the command paths, over the virtual backend")
struct ExchangeCountTests {
    /// A tag kind with the exact exchanges of a library `readNDEF()` on a fresh connection.
    struct Kind: CustomStringConvertible, Sendable {
        let name: String
        let make: @Sendable () throws -> VirtualTag
        /// Library read on a fresh connection (asserted against the library too).
        let read: Int
        /// query + write + read back (+ lock + query) of `writeMessage`, on one connection.
        let write: Int
        let writeLock: Int
        var description: String { name }
    }

    static let message = try! NDEFMessage(records: [.uri("https://example.com/nfctap")]).encoded()
    static let writeMessage = try! NDEFMessage(records: [.uri("https://example.com/written")]).encoded()

    static func type2(_ product: Type2Product) -> @Sendable () throws -> VirtualTag {
        { try VirtualType2Tag(product: product, uid: VirtualType2Tag.defaultUID, ndef: message) }
    }

    /// Write: [GET_VERSION + one FAST_READ | the CC open] + the library's write plan + its read back;
    /// lock: + the library's lock plan (Type 2: lock bytes read and set; Type 4: SELECT CC, UPDATE, check).
    static let kinds: [Kind] = [
        // GET_VERSION, one FAST_READ of the CC and the message (ACR122U direct transmit).
        Kind(name: "NTAG213", make: type2(.ntag213), read: 2, write: 7, writeLock: 11),
        Kind(name: "NTAG215", make: type2(.ntag215), read: 2, write: 8, writeLock: 13),
        Kind(name: "NTAG216", make: type2(.ntag216), read: 2, write: 8, writeLock: 13),
        // GET_VERSION unanswered (the tag is re-selected), then 16-byte READs.
        Kind(name: "MIFARE Ultralight", make: type2(.ultralight), read: 4, write: 10, writeLock: 13),
        // SELECT app, SELECT CC, READ CC (+1 for v3's 17 bytes), SELECT NDEF, READ(s).
        Kind(name: "Type 4 v2 small", make: { VirtualType4Tag.smallMessage() }, read: 5, write: 8, writeLock: 11),
        Kind(name: "Type 4 v3 small", make: { VirtualType4Tag.smallMessage(version: .v3) }, read: 6, write: 9, writeLock: 12),
        Kind(name: "Type 4 v2 4 KB", make: { VirtualType4Tag.largeMessage(size: 4096) }, read: 21, write: 8, writeLock: 11),
        Kind(name: "Type 4 v3 40 000 B", make: { VirtualType4Tag.largeMessage(version: .v3, size: 40000) }, read: 168,
             write: 9, writeLock: 12),
    ]

    static func environment(_ backend: VirtualReaderBackend) -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() })
    }

    /// The library read on a fresh connection through the same reader personality.
    static func libraryRead(_ tag: VirtualTag) throws -> Int {
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        let transceiver = EmulatedPCSCTransceiver(reader: reader)
        let ops: NDEFTagOperations = tag is VirtualType4Tag
            ? Type4Tag(transceiver: transceiver)
            : Type2Tag(link: PseudoAPDUType2Link(transceiver: transceiver, profile: .acr122u))
        _ = try ops.readNDEF()
        return reader.plan.exchangeCount
    }

    @Test("scan / inventory / kiosk: a read with details costs exactly the library read", arguments: kinds)
    func readWithDetails(_ kind: Kind) async throws {
        #expect(try Self.libraryRead(kind.make()) == kind.read)
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.collectTagDetails = true
        configuration.tagReportHandler = { _ in true }
        let session = NFCNDEFReaderSession(configuration: configuration, environment: Self.environment(backend))
        defer { session.invalidate() }
        var events = session.events.makeAsyncIterator()
        backend.place(try kind.make(), on: "Virtual A")
        var report: NFCTagReport?
        while report == nil, let event = try await events.next() {
            if case let .tagReport(r) = event { report = r }
        }
        let read = try #require(report)
        #expect(read.error == nil)
        // A chip that does not answer GET_VERSION (a plain Ultralight) is only guessed from its CC.
        #expect(read.details?.capacity != nil && read.details?.status == .readWrite)
        #expect((read.details?.product ?? read.details?.productGuess) != nil)
        #expect(try #require(backend.reader(named: "Virtual A")).plan.exchangeCount == kind.read)
    }

    @Test("write (and write --lock): the CC or GET_VERSION is asked once per connection", arguments: kinds)
    func writePath(_ kind: Kind) async throws {
        for lock in [false, true] {
            let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
            let delegate = TagsDelegate()
            var configuration = NFCSessionConfiguration()
            configuration.timeLimit = nil
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false,
                                               configuration: configuration, environment: Self.environment(backend))
            session.begin()
            backend.place(try kind.make(), on: "Virtual A")
            let tag = try #require(await delegate.firstTag())
            try await session.connect(to: tag)
            #expect(try await tag.queryNDEFStatus().0 == .readWrite)
            let message = try NFCNDEFMessage.decodeFromTag(Self.writeMessage)
            try await tag.writeNDEF(message)
            #expect(try await tag.readNDEF().records.count == 1)
            if lock {
                try await tag.writeLock()
                #expect(try await tag.queryNDEFStatus().0 == .readOnly)
            }
            session.invalidate()
            let count = try #require(backend.reader(named: "Virtual A")).plan.exchangeCount
            #expect(count == (lock ? kind.writeLock : kind.write), "lock: \(lock)")
        }
    }
}

/// Hands out the first tags of a read-write session.
// @unchecked: it keeps the detected tags, which are not Sendable (as in Apple's Core NFC); `tags` is a lock box.
private final class TagsDelegate: NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    private let tags = Locked<[any NFCNDEFTag]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        self.tags.withLock { $0 += tags }
        arrived.signal()
    }
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        arrived.signal()
    }

    func firstTag() async -> (any NFCNDEFTag)? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                _ = self.arrived.wait(timeout: .now() + 10)
                continuation.resume(returning: self.tags.current.first)
            }
        }
    }
}
