import CoreNFCLinux
import Foundation
import Synchronization
import Testing

// Reader code as a Swift 6 iOS app writes it (this target is in Swift 6 language mode), compiled
// with no warning against this module: Apple's completion handlers are `@Sendable`, so they
// capture only Sendable state (the app's Mutex-guarded model); the session and the tags are not
// Sendable on iOS either, and the app hands them to its handlers or its Task with
// `nonisolated(unsafe)`, its promise that one thread at a time uses them. Only the import differs
// from iOS. The delegates below are the app's code; the tests drive them on fake readers.

/// The app's model: what the reader saw, shared by the session queue, Tasks and the UI.
final class ScanLog: Sendable {
    private let lines = Mutex<[String]>([])
    func note(_ line: String) { lines.withLock { $0.append(line) } }
    var current: [String] { lines.withLock { $0 } }
}

/// Completion-handler style: connect, query, read, write back, end the session.
final class HandlerStyleWriter: NSObject, NFCNDEFReaderSessionDelegate, Sendable {
    let log = ScanLog()

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        log.note("ended \((error as? NFCReaderError)?.code.rawValue ?? -1)")
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        nonisolated(unsafe) let session = session, tag = tags[0]
        let log = self.log
        session.connect(to: tag) { error in
            if let error {
                session.invalidate(errorMessage: error.localizedDescription)
                return
            }
            tag.queryNDEFStatus { status, capacity, error in
                log.note("status \(status.rawValue) capacity \(capacity) error \(error == nil ? "none" : "some")")
                tag.readNDEF { message, _ in
                    log.note("read \(message?.records.first?.payload.count ?? -1) bytes")
                    let reply = NFCNDEFMessage(records: [NFCNDEFPayload(format: .unknown, type: Data(), identifier: Data(),
                                                                        payload: Data([0x0A, 0x0B]))])
                    tag.writeNDEF(reply) { error in
                        log.note(error == nil ? "wrote" : "write failed")
                        session.invalidate()
                    }
                }
            }
        }
    }
}

/// Async style: the delegate hands the tag to a Task, which talks to the card with `try await`
/// and the iOS 14 `resultHandler:` form.
final class AsyncStyleReader: NSObject, NFCTagReaderSessionDelegate, Sendable {
    let log = ScanLog()

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        log.note("ended \((error as? NFCReaderError)?.code.rawValue ?? -1)")
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        nonisolated(unsafe) let session = session, tag = tags[0]
        let log = self.log
        Task {
            do {
                try await session.connect(to: tag)
                guard case let .iso7816(card) = tag else { throw NFCReaderError(.readerErrorInvalidParameter) }
                let getData = NFCISO7816APDU(data: Data([0x00, 0xCA, 0x00, 0x00, 0x00]))!
                let (data, sw1, sw2) = try await card.sendCommand(apdu: getData)
                log.note("apdu \(data.count) bytes \(String(format: "%02X%02X", sw1, sw2))")
                let message = try await card.readNDEF()
                log.note("read \(message.records.count) record")
                card.sendCommand(apdu: getData) { result in
                    if case let .success(response) = result { log.note("result \(String(format: "%02X", response.statusWord1))") }
                    session.invalidate()
                }
            } catch {
                session.invalidate(errorMessage: "\(error)")
            }
        }
    }
}

@Suite("Swift 6 reader code ports with its import changed only")
struct Swift6PortingTests {
    /// Waits (real time, bounded) until `log` holds `line`.
    private func waitFor(_ line: String, in log: ScanLog) async throws {
        for _ in 0..<500 where !log.current.contains(line) {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("completion handlers: connect, query, read and write from @Sendable closures")
    func handlerStyle() async throws {
        let h = Harness()
        let writer = HandlerStyleWriter()
        let card = ntag()
        let session = h.ndefSession(writer)
        h.backend.place(card, on: "Reader A")
        session.begin()
        try await waitFor("ended 200", in: writer.log)
        #expect(writer.log.current == ["status 2 capacity 137 error none", "read 8 bytes", "wrote", "ended 200"])
        #expect(card.writes == [[0x0A, 0x0B]])
    }

    @Test("async/await in a Task and the resultHandler form on an ISO 7816 card")
    func asyncStyle() async throws {
        let h = Harness()
        let reader = AsyncStyleReader()
        let card = type4Card()
        card.apduResponder = { _ in [0x01, 0x02, 0x03, 0x90, 0x00] }
        let session = try #require(h.tagSession(reader))
        h.backend.place(card, on: "Reader A")
        session.begin()
        try await waitFor("ended 200", in: reader.log)
        #expect(reader.log.current == ["apdu 3 bytes 9000", "read 1 record", "result 90", "ended 200"])
        #expect(card.apdusSent.count == 2)
    }
}
