import Foundation
import NDEF
import NFCTags
import ReaderCore
import TagEmulation
import Testing
@testable import CoreNFCLinux

/// The Linux addition on `NFCMiFareTag` for MIFARE Classic (docs/corenfc.md "MIFARE Classic"):
/// sector authentication and block access through a session, over the virtual reader backend.
@Suite struct MiFareClassicBlockTests {
    /// The first tag of a read-write NDEF session on one virtual reader holding `tag`, connected;
    /// and the session's events, which must be kept (the session ends with its consumer).
    static func connectedTag(_ tag: any VirtualTag) async throws -> (NFCNDEFReaderSession, any NFCNDEFTag, NFCSessionEvents.AsyncIterator) {
        let backend = VirtualReaderBackend(readerNames: ["Reader A"])
        _ = backend.place(tag, on: "Reader A")
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = .seconds(60)
        let environment = NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() })
        let session = NFCNDEFReaderSession(readWriteWith: configuration, environment: environment)
        var events = session.events.makeAsyncIterator()
        while let event = try await events.next() {
            if case let .ndefTagsDetected(tags) = event {
                try await session.connect(to: tags[0])
                return (session, tags[0], events)
            }
        }
        throw NFCReaderError(.readerErrorUnsupportedFeature, message: "the session ended without a tag")
    }

    @Test("authenticate a sector with key A or B, read and write its blocks; a refused key is 102, as is a block of another sector")
    func blocks() async throws {
        let card = VirtualMifareClassic.ndefFormatted(.classic4K, message: try NDEFMessage(records: [.uri("https://example.com/b")]).encoded())
        let (session, found, events) = try await Self.connectedTag(card)
        defer { withExtendedLifetime(events) {} }
        defer { session.invalidate() }
        let tag = try #require(found as? any NFCMiFareTag)
        #expect(tag.mifareFamily == .unknown)
        #expect(tag.miFareClassicSectorCount == 40)
        #expect(tag.miFareClassicBlocks(inSector: 1) == 4 ..< 8)
        #expect(tag.miFareClassicBlocks(inSector: 39) == 240 ..< 256)
        #expect(tag.miFareClassicBlocks(inSector: 40) == nil)

        try await tag.authenticateMiFareClassicSector(1, key: Data(MifareClassicKey.nfcForum))
        #expect([UInt8](try await tag.readMiFareClassicBlock(4)) == card.block(4))
        let data = [UInt8](repeating: 0x5A, count: 16)
        try await tag.writeMiFareClassicBlock(6, data: Data(data))
        #expect(card.block(6) == data)
        // Key B of an NDEF sector (access bits 7F 07 88) writes its data too.
        try await tag.authenticateMiFareClassicSector(2, key: Data(MifareClassicKey.transport), useKeyB: true)
        try await tag.writeMiFareClassicBlock(9, data: Data(data))
        #expect(card.block(9) == data)

        do {
            try await tag.authenticateMiFareClassicSector(3, key: Data([1, 2, 3, 4, 5, 6]))
            Issue.record("a wrong key was accepted")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerTransceiveErrorTagResponseError, "\(error)")
        }
        // Sector 3 is not open after the refusal: its blocks are refused without an exchange.
        await #expect(throws: NFCReaderError.self) { _ = try await tag.readMiFareClassicBlock(12) }
        await #expect(throws: NFCReaderError.self) { try await tag.writeMiFareClassicBlock(6, data: Data([0x01])) }
        // The NDEF session still reads the card's NDEF on the same connection.
        let message = try await tag.readNDEF()
        #expect(message.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/b")
    }

    @Test("a Type 2 tag is no MIFARE Classic: no sectors, and authentication is unsupported (1)")
    func notClassic() async throws {
        let (session, found, events) = try await Self.connectedTag(try VirtualType2Tag(product: .ntag213, uid: VirtualType2Tag.defaultUID, ndef: []))
        defer { session.invalidate(); withExtendedLifetime(events) {} }
        let tag = try #require(found as? any NFCMiFareTag)
        #expect(tag.miFareClassicSectorCount == nil && tag.miFareClassicBlocks(inSector: 0) == nil)
        do {
            try await tag.authenticateMiFareClassicSector(1, key: Data(MifareClassicKey.transport))
            Issue.record("a Type 2 tag authenticated")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerErrorUnsupportedFeature)
        }
    }
}
