import Foundation
import Testing
import CoreNFCLinux
import NDEF

@Suite struct NFCNDEFPayloadTests {
    @Test func uriHelperRoundTrips() throws {
        let payload = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://www.example.com/a?b=c"))
        #expect(payload.typeNameFormat == .nfcWellKnown)
        #expect(payload.type == Data("U".utf8))
        #expect(payload.identifier.isEmpty)
        #expect([UInt8](payload.payload) == [0x02] + Array("example.com/a?b=c".utf8))
        #expect(payload.wellKnownTypeURIPayload() == URL(string: "https://www.example.com/a?b=c"))
    }

    @Test func uriHelperFromURL() throws {
        let payload = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(url: URL(string: "tel:+15551234")!))
        #expect([UInt8](payload.payload) == [0x05] + Array("+15551234".utf8))
        #expect(payload.wellKnownTypeURIPayload()?.absoluteString == "tel:+15551234")
        #expect(NFCNDEFPayload.wellKnownTypeURIPayload(string: "") == nil)
    }

    @Test func textHelperWithLocale() throws {
        let payload = try #require(NFCNDEFPayload.wellKnownTypeTextPayload(string: "Grüezi", locale: Locale(identifier: "de_CH")))
        #expect(payload.type == Data("T".utf8))
        #expect([UInt8](payload.payload) == [0x05] + Array("de-CH".utf8) + Array("Grüezi".utf8))
        let (text, locale) = payload.wellKnownTypeTextPayload()
        #expect(text == "Grüezi")
        #expect(locale?.identifier == Locale(identifier: "de-CH").identifier)

        let english = try #require(NFCNDEFPayload.wellKnownTypeTextPayload(string: "hi", locale: Locale(identifier: "en")))
        #expect([UInt8](english.payload) == [0x02, 0x65, 0x6E, 0x68, 0x69])
        #expect(english.wellKnownTypeTextPayload().1?.identifier == "en")
    }

    @Test func textReaderHandlesUTF16() {
        // UTF-16 little-endian with BOM, language "en".
        let payload = NFCNDEFPayload(format: .nfcWellKnown, type: Data("T".utf8), identifier: Data(),
                                     payload: Data([0x82, 0x65, 0x6E, 0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00]))
        #expect(payload.wellKnownTypeTextPayload().0 == "Hi")
    }

    @Test func helpersReturnNilForOtherRecords() {
        let mime = NFCNDEFPayload(format: .media, type: Data("text/plain".utf8), identifier: Data(), payload: Data("x".utf8))
        #expect(mime.wellKnownTypeURIPayload() == nil)
        let (text, locale) = mime.wellKnownTypeTextPayload()
        #expect(text == nil && locale == nil)
        let uri = NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://a.b")!
        #expect(uri.wellKnownTypeTextPayload().0 == nil)
        let empty = NFCNDEFPayload(format: .nfcWellKnown, type: Data("U".utf8), identifier: Data(), payload: Data())
        #expect(empty.wellKnownTypeURIPayload() == nil)
    }

    @Test func typeNameFormatRawValuesMatchApple() {
        #expect(NFCTypeNameFormat.allRawValues == [0, 1, 2, 3, 4, 5, 6])
        #expect(NFCTypeNameFormat(rawValue: 7) == nil)
        for tnf in TypeNameFormat.allCases {
            #expect(NFCTypeNameFormat(tnf).rawValue == tnf.rawValue)
            #expect(NFCTypeNameFormat(tnf).ndef == tnf)
        }
    }
}

extension NFCTypeNameFormat {
    static var allRawValues: [UInt8] {
        [NFCTypeNameFormat.empty, .nfcWellKnown, .media, .absoluteURI, .nfcExternal, .unknown, .unchanged].map(\.rawValue)
    }
}
