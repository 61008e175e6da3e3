import Testing
@testable import ZebraPrinter

/// Each rejected URI with the exact error it must give.
@Suite("Zebra tag URLs: lookalikes and malformed queries are rejected precisely")
struct ZebraTagRejectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let uri: String
        let error: ZebraTagError
        var testDescription: String { uri.debugDescription }
    }

    static let q = "?s=S"
    static let base = "http://www.zebra.com/apps/r/nfc"

    static let lookalikes: [Case] = [
        Case(uri: "http://www.zebra.com.evil.example/apps/r/nfc" + q, error: .hostNotZebra("www.zebra.com.evil.example")),
        Case(uri: "http://zebra.com@evil.example/apps/r/nfc" + q, error: .userInfoNotAllowed(authority: "zebra.com@evil.example")),
        Case(uri: "http://evil.example@zebra.com/apps/r/nfc" + q, error: .userInfoNotAllowed(authority: "evil.example@zebra.com")),
        Case(uri: "http://evil.example/zebra.com/apps/r/nfc" + q, error: .hostNotZebra("evil.example")),
        Case(uri: "http://zebra.com./apps/r/nfc" + q, error: .hostNotZebra("zebra.com.")),
        Case(uri: "http://www.zebra.com./apps/r/nfc" + q, error: .hostNotZebra("www.zebra.com.")),
        Case(uri: "http://evilzebra.com/apps/r/nfc" + q, error: .hostNotZebra("evilzebra.com")),
        Case(uri: "http://ww.zebra.com/apps/r/nfc" + q, error: .hostNotZebra("ww.zebra.com")),
        Case(uri: "http://www.zebra.com%2Eevil.example/apps/r/nfc" + q, error: .hostNotZebra("www.zebra.com%2Eevil.example")),
        Case(uri: "http:///apps/r/nfc" + q, error: .hostNotZebra("")),
        Case(uri: "http://www.zebra.com/apps/r/nfc/../x" + q, error: .pathNotZebra("/apps/r/nfc/../x")),
        Case(uri: "http://www.zebra.com/apps/r/./nfc" + q, error: .pathNotZebra("/apps/r/./nfc")),
        Case(uri: "http://www.zebra.com/apps/r/nfc/" + q, error: .pathNotZebra("/apps/r/nfc/")),
        Case(uri: "http://www.zebra.com/apps/r/NFC" + q, error: .pathNotZebra("/apps/r/NFC")),
        Case(uri: "http://www.zebra.com/apps/r/%6Efc" + q, error: .pathNotZebra("/apps/r/%6Efc")),
        Case(uri: "http://www.zebra.com//apps/r/nfc" + q, error: .pathNotZebra("//apps/r/nfc")),
        Case(uri: "http://www.zebra.com" + q, error: .pathNotZebra("")),
        Case(uri: "http://www.zebra.com/apps/r/nfcx" + q, error: .pathNotZebra("/apps/r/nfcx")),
        Case(uri: "ftp://www.zebra.com/apps/r/nfc" + q, error: .unsupportedScheme("ftp")),
        Case(uri: "javascript:alert(1)//www.zebra.com/apps/r/nfc" + q, error: .unsupportedScheme("javascript")),
        Case(uri: "httpx://www.zebra.com/apps/r/nfc" + q, error: .unsupportedScheme("httpx")),
        Case(uri: "www.zebra.com/apps/r/nfc" + q, error: .missingScheme),
        Case(uri: "://www.zebra.com/apps/r/nfc" + q, error: .missingScheme),
        Case(uri: "", error: .missingScheme),
        Case(uri: "http:www.zebra.com/apps/r/nfc" + q, error: .missingAuthority),
        Case(uri: "http:/www.zebra.com/apps/r/nfc" + q, error: .missingAuthority),
        Case(uri: "http://www.zebra.com:8080/apps/r/nfc" + q, error: .unsupportedPort("8080")),
        Case(uri: "http://www.zebra.com:/apps/r/nfc" + q, error: .unsupportedPort("")),
        Case(uri: "http://www.zebra.com:080/apps/r/nfc" + q, error: .unsupportedPort("080")),
        Case(uri: "https://www.zebra.com:80/apps/r/nfc" + q, error: .unsupportedPort("80")),
        Case(uri: "http://www.zebra.com:443/apps/r/nfc" + q, error: .unsupportedPort("443")),
        Case(uri: "http://www.zebra.com:80:80/apps/r/nfc" + q, error: .unsupportedPort("80:80")),
        Case(uri: "http://[::1]/apps/r/nfc" + q, error: .hostNotZebra("[::1]")),
        Case(uri: "http://[::1]:80/apps/r/nfc" + q, error: .hostNotZebra("[::1]:80")),
        // WHATWG parsers read "\" as "/": here it is not a URI character at all.
        Case(uri: "http://evil.example\\@zebra.com/apps/r/nfc" + q, error: .invalidCharacter(byte: 0x5C, offset: 19)),
        // Cyrillic "а" (D0 B0) in "zebrа".
        Case(uri: "http://www.zebr\u{430}.com/apps/r/nfc" + q, error: .invalidCharacter(byte: 0xD0, offset: 15)),
        Case(uri: "http://www.zebra.com /apps/r/nfc" + q, error: .invalidCharacter(byte: 0x20, offset: 20)),
        Case(uri: base + "#x" + q, error: .fragmentNotAllowed),
        Case(uri: base + q + "#x", error: .fragmentNotAllowed),
        Case(uri: base, error: .missingQuery),
        Case(uri: base + "?", error: .missingSerial),
    ]

    @Test(arguments: lookalikes)
    func lookalike(_ c: Case) {
        #expect(throws: c.error) { try ZebraTag.identity(fromURI: c.uri) }
    }

    @Test(arguments: lookalikes.filter {
        switch $0.error { case .missingQuery, .missingSerial: return false; default: return true }
    })
    func lookalikeIsNotZebraURI(_ c: Case) {
        #expect(!ZebraTag.isZebraURI(c.uri))
    }

    static let queries: [Case] = [
        // Malformed MACs name the key and the decoded value.
        Case(uri: base + "?mB=cc78ab3ebae&s=S", error: .malformedMAC(key: "mB", value: "cc78ab3ebae")),
        Case(uri: base + "?mB=cc78ab3ebae00&s=S", error: .malformedMAC(key: "mB", value: "cc78ab3ebae00")),
        Case(uri: base + "?mBL=cc78ab3ebag0&s=S", error: .malformedMAC(key: "mBL", value: "cc78ab3ebag0")),
        Case(uri: base + "?mW=cc78ab%203ebae0&s=S", error: .malformedMAC(key: "mW", value: "cc78ab 3ebae0")),
        Case(uri: base + "?mE=cc%2078%20ab%203e%20ba%20e0&s=S", error: .malformedMAC(key: "mE", value: "cc 78 ab 3e ba e0")),
        Case(uri: base + "?mB=cc:78-ab:3e:ba:e0&s=S", error: .malformedMAC(key: "mB", value: "cc:78-ab:3e:ba:e0")),
        Case(uri: base + "?mB=cc78ab+3ebae0&s=S", error: .malformedMAC(key: "mB", value: "cc78ab+3ebae0")),
        Case(uri: base + "?mB=0x78ab3ebae0&s=S", error: .malformedMAC(key: "mB", value: "0x78ab3ebae0")),
        Case(uri: base + "?mB=c:c78:ab3:eba:e0x&s=S", error: .malformedMAC(key: "mB", value: "c:c78:ab3:eba:e0x")),
        // Control characters: raw (offset in the URI) and percent-encoded (named by raw key).
        Case(uri: base + "?s=AB\nC", error: .controlCharacter(offset: 36)),
        Case(uri: base + "?s=AB\u{0}C", error: .controlCharacter(offset: 36)),
        Case(uri: base + "?s=AB\u{7F}", error: .controlCharacter(offset: 36)),
        Case(uri: base + "?s=AB%0AC", error: .controlCharacterInField(key: "s")),
        Case(uri: base + "?s=%00", error: .controlCharacterInField(key: "s")),
        Case(uri: base + "?s=S&c=%1B%5B2J", error: .controlCharacterInField(key: "c")),
        Case(uri: base + "?s=S&x=%C2%85", error: .controlCharacterInField(key: "x")),          // NEL (C1)
        Case(uri: base + "?s=S&x=abc%E2%80%AEcba", error: .controlCharacterInField(key: "x")), // RLO (bidi)
        Case(uri: base + "?s=S&x%0A=1", error: .controlCharacterInField(key: "x%0A")),
        Case(uri: base + "?s=S&x=%FF", error: .invalidUTF8(key: "x")),
        Case(uri: base + "?s=S&x=%C0%AF", error: .invalidUTF8(key: "x")),                     // overlong "/"
        Case(uri: base + "?s=S&x=%ED%A0%80", error: .invalidUTF8(key: "x")),                  // surrogate
        Case(uri: base + "?s=%4", error: .invalidPercentEncoding(key: "s")),
        Case(uri: base + "?s=%", error: .invalidPercentEncoding(key: "s")),
        Case(uri: base + "?s=%zz", error: .invalidPercentEncoding(key: "s")),
        Case(uri: base + "?s=S&%7=1", error: .invalidPercentEncoding(key: "%7")),
        // Duplicates, decoded keys compared.
        Case(uri: base + "?s=A&s=B", error: .duplicateKey("s")),
        Case(uri: base + "?s=A&%73=B", error: .duplicateKey("s")),
        Case(uri: base + "?mB=cc78ab3ebae0&s=A&mB=cc78ab3ebae1", error: .duplicateKey("mB")),
        Case(uri: base + "?mW=&mW=&s=A", error: .duplicateKey("mW")),
        Case(uri: base + "?x=1&s=A&x=1", error: .duplicateKey("x")),
        // Field shapes.
        Case(uri: base + "?s=A&flag", error: .malformedQueryField("flag")),
        Case(uri: base + "?=x&s=A", error: .malformedQueryField("=x")),
        // Serial and text fields.
        Case(uri: base + "?mB=cc78ab3ebae0&c=ZQ320", error: .missingSerial),
        Case(uri: base + "?S=ABC", error: .missingSerial),
        Case(uri: base + "?s=", error: .invalidField(key: "s", value: "", reason: .empty)),
        Case(uri: base + "?s=AB%20C", error: .invalidField(key: "s", value: "AB C", reason: .notVisibleASCII)),
        Case(uri: base + "?s=%C3%A9", error: .invalidField(key: "s", value: "\u{E9}", reason: .notVisibleASCII)),
        Case(uri: base + "?s=A&c=ZQ%20320", error: .invalidField(key: "c", value: "ZQ 320", reason: .notVisibleASCII)),
        Case(uri: base + "?s=A&v=%E2%82%AC", error: .invalidField(key: "v", value: "\u{20AC}", reason: .notVisibleASCII)),
    ]

    @Test(arguments: queries)
    func query(_ c: Case) {
        #expect(throws: c.error) { try ZebraTag.identity(fromURI: c.uri) }
    }

    @Test func hugeInputsAreBoundedBeforeParsing() {
        let justOver = Self.base + "?s=S&x=" + String(repeating: "a", count: 1024 - 38 + 1)
        #expect(justOver.utf8.count == 1025)
        #expect(throws: ZebraTagError.uriTooLong(length: 1025, limit: 1024)) { try ZebraTag.identity(fromURI: justOver) }
        let huge = Self.base + "?s=" + String(repeating: "A", count: 8_000_000)
        #expect(throws: ZebraTagError.uriTooLong(length: 8_000_034, limit: 1024)) { try ZebraTag.identity(fromURI: huge) }
        #expect(!ZebraTag.isZebraURI(huge))
        let manyFields = Self.base + "?s=S" + String(repeating: "&", count: 5_000)
        #expect(throws: ZebraTagError.uriTooLong(length: 5_035, limit: 1024)) { try ZebraTag.identity(fromURI: manyFields) }
    }

    @Test func errorsDescribeTheProblem() {
        #expect(ZebraTagError.hostNotZebra("zebra.com.").description == "host \"zebra.com.\" is not zebra.com or www.zebra.com")
        #expect(ZebraTagError.malformedMAC(key: "mB", value: "cc78").description == "mB=\"cc78\" is not a MAC address (12 hex digits)")
        #expect(ZebraTagError.invalidCharacter(byte: 0x5C, offset: 19).description == "byte 0x5C at offset 19 is not allowed in a URI")
        #expect(ZebraTagError.unsupportedURIPrefix(0x05).description == "URI identifier code 0x05 cannot start a Zebra URL")
    }
}
