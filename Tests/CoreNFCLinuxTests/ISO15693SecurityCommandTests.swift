@testable import CoreNFCLinux
import Foundation
import NFCTags
import ReaderCore
import Synchronization
import TagEmulation
import TestSupport
import Testing

/// ISO 15693 frames scripted at the link: every frame sent is logged, each answer is the next
/// scripted one; `nil` is a tag that stays silent (`TagError.timeout`, a PC/SC reader's `64 01`).
final class ScriptedISO15693Link: ISO15693Link, Sendable {
    let uid: [UInt8]
    var passesAnyCommand: Bool { true }
    private let state: Mutex<(answers: [[UInt8]?], frames: [[UInt8]])>

    init(uid: [UInt8], answers: [[UInt8]?] = []) {
        self.uid = uid
        state = Mutex((answers, []))
    }

    var frames: [[UInt8]] { state.withLock { $0.frames } }
    func script(_ answers: [[UInt8]?]) { state.withLock { $0.answers += answers } }

    func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        let answer: [UInt8]?? = state.withLock { s in
            s.frames.append(frame)
            return s.answers.isEmpty ? .none : .some(s.answers.removeFirst())
        }
        guard case let .some(scripted) = answer else { throw TagError.tagLost }
        guard let scripted else { throw TagError.timeout }
        return scripted
    }
}

/// Core NFC's fast reads and cryptographic ISO 15693 commands (docs/tags-and-readers.md §7.12):
/// the exact frames on the wire, what comes back, Apple's parameter checks; then the three virtual
/// chips, which implement none of them, through the virtual OMNIKEY.
@Suite("NFCISO15693Tag fast reads, Authenticate, Key Update, Challenge, Read Buffer")
struct ISO15693SecurityCommandTests {
    static let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x12, 0x34, 0x56, 0x01]
    /// `22 code <UID LSB first>`: Core NFC's addressed frame head.
    static func head(_ code: UInt8, flags: UInt8 = 0x22) -> [UInt8] { [flags, code] + uid.reversed() }

    /// A tag session polling `.iso15693` on a fake reader whose link is `link`, connected.
    static func connected(_ harness: Harness, _ link: ScriptedISO15693Link) throws -> (NFCTagReaderSession, any NFCISO15693Tag) {
        let delegate = TagCollector()
        let session = try #require(harness.tagSession(delegate, polling: .iso15693))
        let card = FakeCard(uid: uid, technology: .type5)
        card.iso15693Link = link
        return (session, try ISO15693TagTests.connect(session, delegate) { _ = harness.backend.place(card, on: "Reader A") })
    }

    static func code(_ error: any Error) -> (Int, Int?) {
        let e = error as? NFCReaderError
        return (e?.code.rawValue ?? -1, e?.userInfo[NFCISO15693TagResponseErrorKey] as? Int)
    }

    @Test("fast reads: 2D / 3D frames like 23 / 33, answers split into blocks, ranges checked before sending")
    func fastReads() async throws {
        let link = ScriptedISO15693Link(uid: Self.uid, answers: [
            [0x00] + Array(UInt8(1) ... 12), [0x00] + Array(UInt8(21) ... 28), [0x00, 9, 9, 9, 9], [0x01, 0x10],
        ])
        let harness = Harness()
        let (session, tag) = try Self.connected(harness, link)
        defer { session.invalidate() }

        let blocks = try await tag.fastReadMultipleBlocks(requestFlags: .highDataRate, blockRange: NSRange(location: 1, length: 3))
        #expect(blocks == [Data([1, 2, 3, 4]), Data([5, 6, 7, 8]), Data([9, 10, 11, 12])])
        let extended = try await tag.extendedFastReadMultipleBlocks(requestFlags: .highDataRate,
                                                                    blockRange: NSRange(location: 0x0102, length: 2))
        #expect(extended == [Data([21, 22, 23, 24]), Data([25, 26, 27, 28])])
        // With `.select` Core NFC sends no UID; the result-handler form answers the same way.
        let selected = Locked<[Data]?>(nil)
        let done = DispatchSemaphore(value: 0)
        tag.fastReadMultipleBlocks(requestFlags: [.highDataRate, .select], blockRange: NSRange(location: 7, length: 1)) {
            (result: Result<[Data], any Error>) in selected.withLock { $0 = try? result.get() }; done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(selected.withLock { $0 } == [Data([9, 9, 9, 9])])
        // The tag's error answer: 102 with its code.
        do {
            _ = try await tag.extendedFastReadMultipleBlocks(requestFlags: .highDataRate, blockRange: NSRange(location: 300, length: 1))
            Issue.record("an error answer was taken for blocks")
        } catch {
            #expect(Self.code(error) == (102, 0x10))
        }
        // Out of range: error 3, nothing sent.
        for range in [NSRange(location: 250, length: 10), NSRange(location: 0, length: 0)] {
            do {
                _ = try await tag.fastReadMultipleBlocks(requestFlags: .highDataRate, blockRange: range)
                Issue.record("range \(range) was sent")
            } catch {
                #expect(Self.code(error).0 == 3)
            }
        }
        do {
            _ = try await tag.extendedFastReadMultipleBlocks(requestFlags: .highDataRate, blockRange: NSRange(location: 0xFFFF, length: 2))
            Issue.record("an extended range past FFFF was sent")
        } catch {
            #expect(Self.code(error).0 == 3)
        }
        let expected: [[UInt8]] = [
            Self.head(0x2D) + [0x01, 0x02],
            Self.head(0x3D) + [0x02, 0x01, 0x01, 0x00],
            [0x12, 0x2D, 0x07, 0x00],
            Self.head(0x3D) + [0x2C, 0x01, 0x00, 0x00],
        ]
        #expect(link.frames == expected)
    }

    @Test("Authenticate, Key Update, Read Buffer: exact frames; response flags and data back, the error flag included")
    func flagsAndData() async throws {
        let message = Data([0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A])
        let link = ScriptedISO15693Link(uid: Self.uid, answers: [
            [0x02, 0xAA, 0xBB], [0x01, 0x0F], [0x04] + [UInt8](repeating: 0x5A, count: 16), [0x00], [],
        ])
        let harness = Harness()
        let (session, tag) = try Self.connected(harness, link)
        defer { session.invalidate() }

        let (authFlags, authData) = try await tag.authenticate(requestFlags: .highDataRate, cryptoSuiteIdentifier: 0, message: message)
        #expect(authFlags == .responseBufferValid && authData == Data([0xAA, 0xBB]))
        // The tag's error flag is the caller's to read, as Apple's header says: not a throw.
        let (keyFlags, keyData) = try await tag.keyUpdate(requestFlags: .highDataRate, keyIdentifier: 2, message: Data([0x11, 0x22]))
        #expect(keyFlags == .error && keyData == Data([0x0F]))
        let (bufferFlags, buffer) = try await tag.readBuffer(requestFlags: .highDataRate)
        #expect(bufferFlags == .finalResponse && buffer == Data(repeating: 0x5A, count: 16))
        // Result-handler form: a bare flags byte is an empty Data.
        let answer = Locked<(UInt8, Data)?>(nil)
        let done = DispatchSemaphore(value: 0)
        tag.authenticate(requestFlags: .highDataRate, cryptoSuiteIdentifier: 0x10, message: Data([0x01])) {
            (result: Result<(NFCISO15693ResponseFlag, Data), any Error>) in
            answer.withLock { $0 = (try? result.get()).map { ($0.0.rawValue, $0.1) } }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(answer.withLock { $0?.0 } == 0x00 && answer.withLock { $0?.1 } == Data())
        // An empty answer is 102.
        do {
            _ = try await tag.readBuffer(requestFlags: [.highDataRate, .select])
            Issue.record("an empty answer was returned")
        } catch {
            #expect(Self.code(error).0 == 102)
        }
        // Identifiers are one byte: error 3, nothing sent.
        for (csi, key) in [(256, 0), (-1, 0), (0, 256)] {
            do {
                if key == 0 {
                    _ = try await tag.authenticate(requestFlags: .highDataRate, cryptoSuiteIdentifier: csi, message: message)
                } else {
                    _ = try await tag.keyUpdate(requestFlags: .highDataRate, keyIdentifier: key, message: message)
                }
                Issue.record("identifier \(csi)/\(key) was sent")
            } catch {
                #expect(Self.code(error).0 == 3)
            }
        }
        let bytes = [UInt8](message)
        let expected: [[UInt8]] = [
            Self.head(0x35) + [0x00] + bytes,
            Self.head(0x36) + [0x02, 0x11, 0x22],
            Self.head(0x3A),
            Self.head(0x35) + [0x10, 0x01],
            [0x12, 0x3A],
        ]
        #expect(link.frames == expected)
    }

    @Test("Challenge: the tag's silence is success, an error answer is 102 with its code")
    func challenge() async throws {
        let link = ScriptedISO15693Link(uid: Self.uid, answers: [nil, nil, [0x01, 0x01]])
        let harness = Harness()
        let (session, tag) = try Self.connected(harness, link)
        defer { session.invalidate() }
        let message = Data([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A])

        try await tag.challenge(requestFlags: .highDataRate, cryptoSuiteIdentifier: 0, message: message)
        let completed = Locked<[Int?]>([])
        let done = DispatchSemaphore(value: 0)
        tag.challenge(requestFlags: [.highDataRate, .select], cryptoSuiteIdentifier: 0, message: message) { error in
            completed.withLock { $0.append(error.map { Self.code($0).0 }) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(completed.withLock { $0 } == [nil])
        do {
            try await tag.challenge(requestFlags: .highDataRate, cryptoSuiteIdentifier: 0, message: message)
            Issue.record("an error answer was taken for success")
        } catch {
            #expect(Self.code(error) == (102, 0x01))
        }
        do {
            try await tag.challenge(requestFlags: .highDataRate, cryptoSuiteIdentifier: 0x100, message: message)
            Issue.record("a two-byte crypto suite was sent")
        } catch {
            #expect(Self.code(error).0 == 3)
        }
        let bytes = [UInt8](message)
        let expected: [[UInt8]] = [
            Self.head(0x39) + [0x00] + bytes,
            [0x12, 0x39, 0x00] + bytes,
            Self.head(0x39) + [0x00] + bytes,
        ]
        #expect(link.frames == expected)
    }

    @Test("the virtual SLIX2, ST25DV04K and Tag-it HF-I Plus refuse all six with 01 (command not supported)",
          arguments: [ISO15693ChipModel.icodeSLIX2, .st25dv04k, .tagItHFIPlus])
    func virtualChipsRefuse(_ model: ISO15693ChipModel) async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual 15693"], profile: .omnikey)
        let virtual = VirtualISO15693Tag.formatted(model, uid: VirtualISO15693Tag.exampleUID(model))
        let (session, tag) = try ISO15693TagTests.connectedTag(backend, virtual)
        defer { session.invalidate() }
        let range = NSRange(location: 0, length: 2)
        for extended in [false, true] {
            do {
                _ = extended ? try await tag.extendedFastReadMultipleBlocks(requestFlags: .highDataRate, blockRange: range)
                    : try await tag.fastReadMultipleBlocks(requestFlags: .highDataRate, blockRange: range)
                Issue.record("\(model.name) answered a fast read")
            } catch {
                #expect(Self.code(error) == (102, 0x01))
            }
        }
        let auth = try await tag.authenticate(requestFlags: .highDataRate, cryptoSuiteIdentifier: 0, message: Data(count: 12))
        let key = try await tag.keyUpdate(requestFlags: .highDataRate, keyIdentifier: 0, message: Data(count: 16))
        let buffer = try await tag.readBuffer(requestFlags: .highDataRate)
        for answer in [auth, key, buffer] {
            let refused = answer.0 == .error && answer.1 == Data([0x01])
            #expect(refused)
        }
        do {
            try await tag.challenge(requestFlags: .highDataRate, cryptoSuiteIdentifier: 0, message: Data(count: 11))
            Issue.record("\(model.name) took a Challenge")
        } catch {
            #expect(Self.code(error) == (102, 0x01))
        }
        // Every command reached the chip (after the session's own reads, if any).
        #expect(Array(virtual.commandLog.suffix(6)) == [0x2D, 0x3D, 0x35, 0x36, 0x3A, 0x39])
    }
}
