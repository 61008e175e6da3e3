@testable import CoreNFCLinux
import Foundation
import NDEF
import ReaderCore
import Synchronization
import TagEmulation
import Testing

/// A session keeps the backends its environment made alive until it ends. Apple's initializers use
/// `NFCReaderEnvironment.shared`, whose `makeBackends` makes fresh backends nobody else holds: if
/// the session dropped them, a tag (or reader) arriving after `begin()` would never be reported.
@Suite("Session backend lifetime")
struct SessionBackendLifetimeTests {
    /// Holds the backend `makeBackends` made without keeping it alive.
    final class WeakBox: Sendable {
        private struct Reference { weak var backend: VirtualReaderBackend? }
        private let reference = Mutex(Reference())
        var backend: VirtualReaderBackend? {
            get { reference.withLock { $0.backend } }
            set { reference.withLock { $0.backend = newValue } }
        }
    }

    @Test("a backend only the session holds still reports a reader and tag that arrive after begin()")
    func backendMadeBySessionStaysAlive() async throws {
        let box = WeakBox()
        let environment = NFCReaderEnvironment(
            makeBackends: {
                let made = VirtualReaderBackend(readerNames: [])
                box.backend = made
                return [made]
            },
            makeNDEFOperations: { try $0.ndefOperations() },
            slot: NFCSessionSlot())
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.readerRemovalEndsSession = false  // begins with no reader: `readers` holds nothing
        configuration.batchWindow = .zero
        let session = NFCNDEFReaderSession(configuration: configuration, environment: environment)
        defer { session.invalidate() }
        var events = session.events.makeAsyncIterator()  // starts the session
        for _ in 0..<2000 where !session.isReady { try await Task.sleep(for: .milliseconds(1)) }
        try #require(session.isReady)
        session.engine.queue.sync {}  // start() has returned: its locals are gone

        let backend = try #require(box.backend, "the session let its backend go")
        backend.addReader("Late Reader")
        let tag = try VirtualType2Tag(product: .ntag213, uid: VirtualType2Tag.defaultUID,
                                      ndef: try NDEFMessage(records: [.uri("https://example.com/late")]).encoded())
        backend.place(tag, on: "Late Reader")
        var uri: String?
        while uri == nil, let event = try await events.next() {
            if case let .ndefRead(message, _) = event { uri = message.records.first?.wellKnownTypeURIPayload()?.absoluteString }
        }
        #expect(uri == "https://example.com/late")
    }
}
