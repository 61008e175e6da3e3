import Foundation
import Testing
import CoreNFCLinux
import NDEF

@Suite struct NFCNDEFMessageTests {
    static let uriMessage = Data([0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8))

    @Test func initWithDataDecodesOneMessage() throws {
        let message = try #require(NFCNDEFMessage(data: Self.uriMessage))
        #expect(message.records.count == 1)
        #expect(message.records[0].typeNameFormat == .nfcWellKnown)
        #expect(message.records[0].wellKnownTypeURIPayload() == URL(string: "https://example.com"))
        #expect(message.length == 16)
    }

    @Test(arguments: [
        ("two messages", [0xD1, 0x01, 0x02, 0x55, 0x05, 0x31, 0xD0, 0x00, 0x00]),
        ("trailing bytes", [0xD1, 0x01, 0x02, 0x55, 0x05, 0x31, 0x00]),
        ("no ME", [0x91, 0x01, 0x02, 0x55, 0x05, 0x31]),
        ("no MB", [0x51, 0x01, 0x02, 0x55, 0x05, 0x31]),
        ("truncated", [0xD1, 0x01, 0x05, 0x55, 0x04]),
        ("garbage", [0xFF, 0xFF, 0xFF]),
        ("empty", []),
    ] as [(String, [UInt8])])
    func initWithDataIsNilUnlessExactlyOneCompleteMessage(_ name: String, _ bytes: [UInt8]) {
        #expect(NFCNDEFMessage(data: Data(bytes)) == nil, "\(name)")
    }

    @Test func lengthCountsEveryHeaderAndChunk() throws {
        let uri = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com"))
        let text = try #require(NFCNDEFPayload.wellKnownTypeTextPayload(string: "hi", locale: Locale(identifier: "en")))
        let message = NFCNDEFMessage(records: [uri, text])
        // U: 4 + 12; T: 4 + 5.
        #expect(message.length == 25)
        #expect(try message.encodedBytes() == [0x91, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8)
                + [0x51, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69])
        #expect(NFCNDEFMessage(records: []).length == 0)
        let bad = NFCNDEFPayload(format: .unchanged, type: Data(), identifier: Data(), payload: Data([1]))
        #expect(NFCNDEFMessage(records: [bad]).length == 0)
    }

    @Test func chunkSizeIsHonouredPerRecord() throws {
        let chunked = NFCNDEFPayload(format: .media, type: Data("a/b".utf8), identifier: Data(),
                                     payload: Data("ABCDEFG".utf8), chunkSize: 3)
        let whole = NFCNDEFPayload(format: .unknown, type: Data(), identifier: Data(), payload: Data([1, 2, 3, 4]))
        let message = NFCNDEFMessage(records: [chunked, whole])
        let expected: [UInt8] = [0xB2, 0x03, 0x03, 0x61, 0x2F, 0x62, 0x41, 0x42, 0x43,
                                 0x36, 0x00, 0x03, 0x44, 0x45, 0x46,
                                 0x16, 0x00, 0x01, 0x47,
                                 0x55, 0x00, 0x04, 0x01, 0x02, 0x03, 0x04]
        #expect(try message.encodedBytes() == expected)
        #expect(message.length == expected.count)
        // Decoding reassembles the chunks.
        let decoded = try #require(NFCNDEFMessage(data: Data(expected)))
        #expect(decoded.records.map(\.payload) == [Data("ABCDEFG".utf8), Data([1, 2, 3, 4])])
        // chunkSize 0 means not chunked.
        let zero = NFCNDEFPayload(format: .unknown, type: Data(), identifier: Data(), payload: Data([1, 2]), chunkSize: 0)
        #expect(try NFCNDEFMessage(records: [zero]).encodedBytes() == [0xD5, 0x00, 0x02, 0x01, 0x02])
    }

    @Test func decodeFromTagIsRelaxed() throws {
        // A record without ME (as some tags hold), then one followed by padding bytes.
        let message = try NFCNDEFMessage.decodeFromTag([0x91, 0x01, 0x02, 0x55, 0x05, 0x31])
        #expect(message.records.count == 1)
        #expect(message.records[0].wellKnownTypeURIPayload()?.absoluteString == "tel:1")
        let padded = try NFCNDEFMessage.decodeFromTag([0xD1, 0x01, 0x02, 0x55, 0x05, 0x31, 0x00, 0x00])
        #expect(padded.records.count == 1)
        #expect(throws: NDEFError.truncated(field: .payload, offset: 4, needed: 5, available: 1)) {
            try NFCNDEFMessage.decodeFromTag([0xD1, 0x01, 0x05, 0x55, 0x04])
        }
    }

    @Test func identifiersSurviveARoundTrip() throws {
        let payload = NFCNDEFPayload(format: .nfcExternal, type: Data("example.com:t".utf8),
                                     identifier: Data("id1".utf8), payload: Data([9]))
        let bytes = try NFCNDEFMessage(records: [payload]).encodedBytes()
        let decoded = try #require(NFCNDEFMessage(data: Data(bytes)))
        #expect(decoded.records[0].identifier == Data("id1".utf8))
        #expect(decoded.records[0].type == Data("example.com:t".utf8))
        #expect(decoded.records[0].typeNameFormat == .nfcExternal)
    }
}
