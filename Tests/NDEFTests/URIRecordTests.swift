import Testing
import NDEF

@Suite struct URIRecordTests {
    /// NFC Forum URI RTD 1.0 Table 3, written out independently of the implementation's table.
    static let prefixes = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://",
        "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:",
        "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://", "file://",
        "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    @Test func tableHas36Codes() {
        #expect(Self.prefixes.count == 36)
        #expect(URIPrefixes.all == Self.prefixes)
        #expect(URIPrefixes.prefix(for: 0x23) == "urn:nfc:")
        #expect(URIPrefixes.prefix(for: 0x24) == nil)
        #expect(URIPrefixes.prefix(for: 0xFF) == nil)
    }

    /// Every code both ways: `D1 01 08 55 <code> "example"` <-> prefix + "example".
    @Test(arguments: 0..<36) func everyPrefixBothWays(_ code: Int) throws {
        let uri = Self.prefixes[code] + "example"
        let bytes = h("D1 01 08 55") + [UInt8(code)] + Array("example".utf8)
        let message = try NDEFMessage(bytes: bytes)
        #expect(try message.records[0].parsed() == .uri(URIRecord(uri: uri)))
        #expect(try NDEFMessage(records: [.uri(uri)]).encoded() == bytes)
    }

    @Test(arguments: [
        ("https://www.nfc-forum.org", 0x02, "nfc-forum.org"),
        ("http://www.", 0x01, ""),
        ("http://example", 0x03, "example"),
        ("urn:epc:id:sgtin:1", 0x1E, "sgtin:1"),
        ("urn:epc:tag:x", 0x1F, "x"),
        ("urn:epc:pat:x", 0x20, "x"),
        ("urn:epc:raw:x", 0x21, "x"),
        ("urn:epc:other", 0x22, "other"),
        ("urn:nfc:wkt:U", 0x23, "wkt:U"),
        ("urn:isbn:1", 0x13, "isbn:1"),
        ("ftp://anonymous:anonymous@host", 0x07, "host"),
        ("ftp://ftp.example.org", 0x08, "example.org"),
        ("ftp://host", 0x0D, "host"),
        ("sips:alice@example.org", 0x16, "alice@example.org"),
        ("sip:alice@example.org", 0x15, "alice@example.org"),
        ("tel:", 0x05, ""),
        ("HTTPS://WWW.EXAMPLE.COM", 0x00, "HTTPS://WWW.EXAMPLE.COM"),  // byte-exact match only
        ("", 0x00, ""),
    ])
    func longestPrefixIsChosen(_ uri: String, _ code: Int, _ rest: String) throws {
        let record = NDEFRecord.uri(uri)
        #expect(record.tnf == .wellKnown && record.type == [0x55])
        #expect(record.payload == [UInt8(code)] + Array(rest.utf8))
        #expect(try URIRecord(record: record).uri == uri)
    }

    @Test func zebraTagURI() throws {
        // docs/zebra.md: a Zebra printer's record, header D1, code 01 (http://www.).
        let uri = "http://www.zebra.com/apps/r/nfc?mBL=cc78ab3ebae0&c=ZD41022-D01W01EZ-&s=XXZFJ170700336&v=0"
        let rest = "zebra.com/apps/r/nfc?mBL=cc78ab3ebae0&c=ZD41022-D01W01EZ-&s=XXZFJ170700336&v=0"
        let bytes = h("D1 01") + [UInt8(rest.utf8.count + 1)] + h("55 01") + Array(rest.utf8)
        #expect(try NDEFMessage(records: [.uri(uri)]).encoded() == bytes)
        #expect(try NDEFMessage(bytes: bytes).records[0].parsed() == .uri(URIRecord(uri: uri)))
    }

    @Test func nonASCIIIsUTF8() throws {
        let record = NDEFRecord.uri("https://ex.org/é")
        #expect(record.payload == h("04") + Array("ex.org/".utf8) + h("C3 A9"))
        #expect(try URIRecord(record: record).uri == "https://ex.org/é")
    }

    @Test func reservedCodeAndBadUTF8StrictVersusRelaxed() throws {
        let reserved = NDEFRecord(tnf: .wellKnown, type: [0x55], payload: h("24") + Array("x.org".utf8))
        #expect(throws: NDEFError.invalidPayload(recordType: "U", offset: 0, violation: .unknownURIIdentifierCode(0x24))) {
            try URIRecord(record: reserved, mode: .strict)
        }
        #expect(try URIRecord(record: reserved, mode: .relaxed).uri == "x.org")
        let highCode = NDEFRecord(tnf: .wellKnown, type: [0x55], payload: h("FF 61"))
        #expect(try URIRecord(record: highCode, mode: .relaxed).uri == "a")

        let badUTF8 = NDEFRecord(tnf: .wellKnown, type: [0x55], payload: h("04 61 FF 62"))
        #expect(throws: NDEFError.invalidPayload(recordType: "U", offset: 1, violation: .invalidUTF8)) {
            try URIRecord(record: badUTF8)
        }
        #expect(try URIRecord(record: badUTF8, mode: .relaxed).uri == "https://a\u{FFFD}b")
    }

    @Test func emptyPayloadAndWrongTypeAreErrorsInBothModes() {
        for mode in [DecodingMode.strict, .relaxed] {
            #expect(throws: NDEFError.invalidPayload(recordType: "U", offset: 0, violation: .empty)) {
                try URIRecord(record: NDEFRecord(tnf: .wellKnown, type: [0x55]), mode: mode)
            }
            #expect(throws: NDEFError.invalidPayload(recordType: "U", offset: 0, violation: .wrongRecordType(expected: "URI (U)"))) {
                try URIRecord(record: NDEFRecord(tnf: .wellKnown, type: [0x75], payload: [0]), mode: mode)  // "u": case-sensitive
            }
        }
    }
}
