import Testing
import NDEF

/// Media, absolute URI, external and Android Application records, both ways, and `parsed` dispatch.
@Suite struct TypedRecordTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var hex: String
        var parsed: ParsedRecord
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(name: "application/json", hex: "D2 10 07" + a("application/json") + a(#"{"a":1}"#),
               parsed: .media(MediaRecord(mediaType: "application/json", payload: Array(#"{"a":1}"#.utf8)))),
        Vector(name: "text/plain with a parameter", hex: "D2 19 02" + a("text/plain; charset=utf-8") + a("hi"),
               parsed: .media(MediaRecord(mediaType: "text/plain; charset=utf-8", payload: Array("hi".utf8)))),
        Vector(name: "absolute URI", hex: "D3 13 02" + a("http://example.com/") + "01 02",
               parsed: .absoluteURI(AbsoluteURIRecord(uri: "http://example.com/", payload: [1, 2]))),
        Vector(name: "external type", hex: "D4 0F 03" + a("example.com:foo") + "01 02 03",
               parsed: .external(ExternalRecord(domain: "example.com", type: "foo", payload: [1, 2, 3]))),
        Vector(name: "Android Application Record", hex: "D4 0F 0B" + a("android.com:pkg") + a("com.example"),
               parsed: .androidApplication(AndroidApplicationRecord(packageName: "com.example"))),
        Vector(name: "empty record", hex: "D0 00 00", parsed: .empty),
        Vector(name: "TNF 5 unknown", hex: "D5 00 01 2A", parsed: .unknown(NDEFRecord(tnf: .unknown, payload: [0x2A]))),
        Vector(name: "unknown well-known type (Hr)", hex: "D1 02 01" + a("Hr") + "12",
               parsed: .unknown(NDEFRecord(tnf: .wellKnown, type: Array("Hr".utf8), payload: [0x12]))),
    ]

    @Test(arguments: vectors) func decodes(_ v: Vector) throws {
        #expect(try NDEFMessage(bytes: h(v.hex)).records[0].parsed() == v.parsed)
    }

    @Test(arguments: vectors) func encodes(_ v: Vector) throws {
        #expect(try NDEFMessage(records: [v.parsed.record()]).encoded() == h(v.hex))
    }

    @Test func externalTypesCompareCaseInsensitively() throws {
        let aar = NDEFRecord(tnf: .external, type: Array("Android.COM:Pkg".utf8), payload: Array("a.b".utf8))
        #expect(try aar.parsed() == .androidApplication(AndroidApplicationRecord(packageName: "a.b")))
        let ext = ExternalRecord(domain: "Example.com", type: "Foo")
        #expect(ext.matches("urn:nfc:ext:example.com:foo"))
        #expect(ext.matches("EXAMPLE.COM:FOO"))
        #expect(!ext.matches("example.com:bar"))
        #expect(ext.name == "Example.com:Foo")
        // Well-known types are case-sensitive: "u" is not the URI type.
        #expect(try NDEFRecord(tnf: .wellKnown, type: [0x75], payload: [0]).parsed() == .unknown(NDEFRecord(tnf: .wellKnown, type: [0x75], payload: [0])))
    }

    @Test func mediaHelpers() {
        let json = MediaRecord(mediaType: "Application/JSON; charset=utf-8", payload: [])
        #expect(json.essence == "application/json" && json.isJSON)
        #expect(MediaRecord(mediaType: "application/ld+json", payload: []).isJSON)
        #expect(!MediaRecord(mediaType: "text/plain", payload: []).isJSON)
        #expect(MediaRecord(mediaType: "text/plain", payload: Array("hé".utf8)).text == "hé")
        #expect(MediaRecord(mediaType: "text/plain", payload: [0xFF]).text == nil)
        #expect(MediaRecord(mediaType: "image/png", payload: Array("x".utf8)).text == nil)
    }

    @Test(arguments: [
        (TypeNameFormat.media, "nonsense"), (.media, "a/"), (.media, "/b"), (.media, "a b/c"), (.media, "a/b/c"),
        (.absoluteURI, "no-scheme"), (.absoluteURI, ":x"), (.absoluteURI, "1http:x"), (.absoluteURI, "http://a b"),
        (.external, "nocolon"), (.external, ":foo"), (.external, "example.com:"), (.external, "a b:c"),
    ])
    func invalidTypesAreStrictErrorsAndRelaxedText(_ tnf: TypeNameFormat, _ type: String) throws {
        let record = NDEFRecord(tnf: tnf, type: Array(type.utf8), payload: [1])
        #expect(throws: NDEFError.self) { try record.parsed(mode: .strict) }
        let relaxed = try record.parsed(mode: .relaxed)
        switch relaxed {
        case let .media(m): #expect(m.mediaType == type)
        case let .absoluteURI(u): #expect(u.uri == type)
        case let .external(e): #expect(e.name == type || (e.domain.isEmpty && e.type == type))
        default: Issue.record("unexpected \(relaxed)")
        }
        // The encoder refuses what strict decoding would reject.
        #expect(throws: NDEFError.self) { try relaxed.record() }
    }

    @Test func androidApplicationRecordErrors() {
        let aarType = Array("android.com:pkg".utf8)
        #expect(throws: NDEFError.invalidPayload(recordType: "android.com:pkg", offset: 0, violation: .empty)) {
            try NDEFRecord(tnf: .external, type: aarType).parsed(mode: .relaxed)
        }
        #expect(throws: NDEFError.invalidPayload(recordType: "android.com:pkg", offset: 0, violation: .invalidUTF8)) {
            try NDEFRecord(tnf: .external, type: aarType, payload: [0xC3]).parsed()
        }
        #expect(NDEFRecord.androidApplication("com.x") == NDEFRecord(tnf: .external, type: aarType, payload: Array("com.x".utf8)))
    }

    @Test func typedViewsRejectOtherRecords() {
        let uri = NDEFRecord.uri("tel:1")
        #expect(throws: NDEFError.self) { try TextRecord(record: uri) }
        #expect(throws: NDEFError.self) { try SmartPoster(record: uri) }
        #expect(throws: NDEFError.self) { try MediaRecord(record: uri) }
        #expect(throws: NDEFError.self) { try AbsoluteURIRecord(record: uri) }
        #expect(throws: NDEFError.self) { try ExternalRecord(record: uri) }
        #expect(throws: NDEFError.self) { try AndroidApplicationRecord(record: uri) }
        #expect(throws: NDEFError.self) { try URIRecord(record: .empty) }
    }

    /// Relaxed framing keeps records whose fields break their TNF's rules; they parse as unknown.
    @Test func relaxedOddRecordsParseAsUnknown() throws {
        for record in [NDEFRecord(tnf: .empty, payload: [1]), NDEFRecord(tnf: .wellKnown, payload: [1]),
                       NDEFRecord(tnf: .media), NDEFRecord(tnf: .external), NDEFRecord(tnf: .absoluteURI),
                       NDEFRecord(tnf: .unknown, type: [1])] {
            #expect(try record.parsed(mode: .relaxed) == .unknown(record))
        }
    }
}
