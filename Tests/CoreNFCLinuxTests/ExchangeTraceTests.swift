@testable import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import ReaderCore
import TagEmulation
import Testing
import TestSupport

/// Issue 12 items 3 and 5: `--trace` lines for a known tag, and several readers matching a query.
@Suite("Exchange trace and reader matching in sessions")
struct ExchangeTraceTests {
    static func environment(_ backend: VirtualReaderBackend) -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() })
    }

    @Test("a Type 4 read traces connect + ATR, then each command and reply with its status word")
    func type4Trace() async throws {
        let lines = Locked<[String]>([])
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"])
        backend.trace = ExchangeTrace { line in lines.withLock { $0.append(line) } }
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.collectTagDetails = true
        let session = NFCNDEFReaderSession(configuration: configuration, environment: Self.environment(backend))
        defer { session.invalidate() }
        var events = session.events.makeAsyncIterator()
        let tag = VirtualType4Tag.smallMessage()
        let detected = try #require(backend.place(tag, on: "Virtual A"))
        while let event = try await events.next() {
            if case .tagReport = event { break }
        }
        let trace = lines.current
        // Durations vary: compare without them, then check their shape.
        let stripped = trace.map { $0.replacingOccurrences(of: #" \(\d+\.\d\d ms\)$"#, with: "", options: .regularExpression) }
        // READ BINARY asks MLe (F6) bytes: NLEN, the message, then the rest of the file.
        let ndefFile = Array(tag.ndefFile.prefix(0xF6))
        #expect(Array(ndefFile.prefix(2 + VirtualType4Tag.sampleURIMessage.count))
                == [0x00, UInt8(VirtualType4Tag.sampleURIMessage.count)] + VirtualType4Tag.sampleURIMessage)
        #expect(stripped == [
            "connect Virtual A ATR \(detected.atr.hexString(separator: " "))",
            "> 00 A4 04 00 07 D2 76 00 00 85 01 01 00", "< 90 00",
            "> 00 A4 00 0C 02 E1 03", "< 90 00",
            "> 00 B0 00 00 0F", "< \((Array(tag.ccFile.prefix(15)) + [0x90, 0x00]).hexString(separator: " "))",
            "> 00 A4 00 0C 02 E1 04", "< 90 00",
            "> 00 B0 00 00 F6", "< \((ndefFile + [0x90, 0x00]).hexString(separator: " "))",
        ])
        #expect(trace.filter { $0.hasPrefix("<") }.allSatisfy { $0.range(of: #" \(\d+\.\d\d ms\)$"#, options: .regularExpression) != nil })
    }

    @Test("a failed exchange is traced as an error")
    func errorLine() {
        let lines = Locked<[String]>([])
        let trace = ExchangeTrace { line in lines.withLock { $0.append(line) } }
        trace.exchanged(command: [0xFF, 0xCA, 0x00, 0x00, 0x00], reply: nil, error: TagError.tagLost, duration: .milliseconds(12))
        trace.connected(reader: "Bad\u{1B}[31mName", atr: [])
        #expect(lines.current == ["> FF CA 00 00 00", "< error: \(TagError.tagLost) (12.00 ms)", "connect Bad\\u{1B}[31mName"])
    }

    @Test("a query several readers contain is refused when the session begins (code 1, naming them)")
    func ambiguousQuery() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual PCD 00 00", "Virtual PCD 00 01"])
        var configuration = NFCSessionConfiguration()
        configuration.readerFilter = NFCReaderFilter(readerQueries: ["virtual"])
        let session = NFCNDEFReaderSession(configuration: configuration, environment: Self.environment(backend))
        var events = session.events.makeAsyncIterator()
        do {
            while try await events.next() != nil {}
            Issue.record("the session began")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerErrorUnsupportedFeature)
            #expect(error.message == "\"virtual\" matches several readers: Virtual PCD 00 00, Virtual PCD 00 01")
        }
    }

    @Test("a reader plugged in later that a query would share is not listened to")
    func lateSecondMatch() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual PCD 00 00"])
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.readerFilter = NFCReaderFilter(readerQueries: ["virtual"])
        let session = NFCNDEFReaderSession(configuration: configuration, environment: Self.environment(backend))
        defer { session.invalidate() }
        var events = session.events.makeAsyncIterator()
        // The session has begun with one reader before the second is plugged in.
        while let event = try await events.next() {
            if case .readerAdded = event { break }
        }
        backend.addReader("Virtual PCD 00 01")
        backend.place(VirtualType4Tag.smallMessage(), on: "Virtual PCD 00 01")
        backend.place(VirtualType4Tag.smallMessage(), on: "Virtual PCD 00 00")
        while let event = try await events.next() {
            if case let .tagReport(report) = event {
                #expect(report.tag.reader.name == "Virtual PCD 00 00")
                break
            }
        }
        #expect(try #require(backend.reader(named: "Virtual PCD 00 01")).plan.exchangeCount == 0)
    }
}
