import Foundation
import NDEF
import Testing

/// `nfctap decode` run as a user runs it: arguments, stdin, files, stdout, stderr, exit status.
@Suite struct DecodeCLITests {
    static let uriHex = "D1010C55046578616D706C652E636F6D"  // https://example.com
    static let uriJSON = #"{"schemaVersion":1,"records":[{"tnf":1,"type":"U","id":"","payload":"046578616D706C652E636F6D","uri":"https://example.com"}]}"# + "\n"

    @Test func hexArgumentPrintsOneLinePerRecord() throws {
        let r = try runCLI(["decode", Self.uriHex])
        #expect(r.status == 0)
        #expect(r.stdout == "1: URI https://example.com\n")
        #expect(r.stderr.isEmpty)
    }

    @Test func jsonOutputForAURIRecord() throws {
        let r = try runCLI(["decode", "--json", "D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D"])
        #expect(r.status == 0)
        #expect(r.stdout == Self.uriJSON)
    }

    @Test func fileIsReadAsBinary() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-decode-\(UUID().uuidString).ndef")
        try Data([UInt8](hex: Self.uriHex)!).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try runCLI(["decode", "--json", "--file", url.path])
        #expect(r.status == 0)
        #expect(r.stdout == Self.uriJSON)
    }

    @Test func stdinBinaryOrHexText() throws {
        let binary = try runCLI(["decode", "--json"], stdin: Data([UInt8](hex: Self.uriHex)!))
        #expect(binary.status == 0)
        #expect(binary.stdout == Self.uriJSON)
        let hexText = try runCLI(["decode", "--json"], stdin: Data("d1 01 0c 55 04 65 78 61 6d 70 6c 65 2e 63 6f 6d\n".utf8))
        #expect(hexText.status == 0)
        #expect(hexText.stdout == Self.uriJSON)
    }

    @Test func malformedInputFailsWithExit1AndAMessage() throws {
        let r = try runCLI(["decode", "D1010C5504"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "nfctap: error: truncated NDEF record: payload at offset 4 needs 12 bytes, 1 left\n")
    }

    @Test func badHexAndEmptyStdinFail() throws {
        let hex = try runCLI(["decode", "D1 0"])
        #expect(hex.status == 1 && hex.stdout.isEmpty)
        #expect(hex.stderr.hasPrefix("nfctap: error: the argument is not hex"))
        let empty = try runCLI(["decode"], stdin: Data())
        #expect(empty.status == 1 && empty.stdout.isEmpty)
        #expect(empty.stderr == "nfctap: error: no input: give hex, --file, or NDEF bytes on stdin\n")
        let missing = try runCLI(["decode", "--file", "/nonexistent/nfctap.ndef"])
        #expect(missing.status == 1 && missing.stderr == "nfctap: error: cannot read /nonexistent/nfctap.ndef\n")
    }

    @Test func hexAndFileTogetherIsAUsageError() throws {
        let r = try runCLI(["decode", Self.uriHex, "--file", "x"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
    }

    @Test func relaxedAcceptsWhatStrictRejects() throws {
        // Unknown URI code 0x24 and a trailing padding byte.
        let strict = try runCLI(["decode", "D101025524610000"])
        #expect(strict.status == 1)
        #expect(strict.stderr == "nfctap: error: 2 bytes after the end of the NDEF message (offset 6)\n")
        let relaxed = try runCLI(["decode", "--relaxed", "--json", "D101025524610000"])
        #expect(relaxed.status == 0)
        #expect(relaxed.stdout == #"{"schemaVersion":1,"records":[{"tnf":1,"type":"U","id":"","payload":"2461","uri":"a"}]}"# + "\n")
        let strictPayload = try runCLI(["decode", "D10102552461"])
        #expect(strictPayload.stderr == "nfctap: error: invalid \"U\" record payload at offset 0: unknown URI identifier code 0x24\n")
    }

    @Test func jsonEscapesHostileText() throws {
        // Text [en]: ESC [ 3 1 m, quote, backslash, tab, "é" (C3 A9), NUL.
        let r = try runCLI(["decode", "--json", "D1 01 0E 54 02 65 6E 1B 5B 33 31 6D 22 5C 09 C3 A9 00"])
        #expect(r.status == 0)
        #expect(r.stdout == #"{"schemaVersion":1,"records":[{"tnf":1,"type":"T","id":"","payload":"02656E1B5B33316D225C09C3A900","text":"\u001b[31m\"\\\té\u0000","language":"en"}]}"# + "\n")
        let human = try runCLI(["decode", "D1 01 0E 54 02 65 6E 1B 5B 33 31 6D 22 5C 09 C3 A9 00"])
        #expect(human.stdout == #"1: Text [en] "\u{1B}[31m\"\\\té\u{0}""# + "\n")
    }

    @Test func mediaJSONIsEmbeddedAndTypesShownAsHexWhenNotPrintable() throws {
        // application/json {"b":[1,true],"a":null}, then TNF 5 with id FF.
        let payload = Array(#"{"b":[1,true],"a":null}"#.utf8)
        var bytes: [UInt8] = [0x92, 0x10, UInt8(payload.count)]
        bytes += Array("application/json".utf8) + payload
        bytes += [0x5D, 0x00, 0x00, 0x01, 0xFF]
        let r = try runCLI(["decode", "--json", bytes.hexString])
        #expect(r.status == 0)
        let first = #"{"tnf":2,"type":"application/json","id":"","payload":""# + payload.hexString
            + #"","mime":"application/json","json":{"a":null,"b":[1,true]}}"#
        let second = #"{"tnf":5,"type":"","id":"FF","idFormat":"hex","payload":""}"#
        #expect(r.stdout == #"{"schemaVersion":1,"records":["# + first + "," + second + "]}\n")
    }

    @Test func smartPosterNestsItsRecords() throws {
        // Sp { U https://nfc.org, T [en] "Hi", act 02 }
        let hex = "D1 02 1C 53 70  91 01 08 55 04 6E 66 63 2E 6F 72 67  11 01 05 54 02 65 6E 48 69  51 03 01 61 63 74 02"
        let r = try runCLI(["decode", "--json", hex])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix(#"{"schemaVersion":1,"records":[{"tnf":1,"type":"Sp","id":"","payload":"#))
        #expect(r.stdout.hasSuffix(#""uri":"https://nfc.org","records":[{"tnf":1,"type":"U","id":"","payload":"046E66632E6F7267","uri":"https://nfc.org"},{"tnf":1,"type":"T","id":"","payload":"02656E4869","text":"Hi","language":"en"},{"tnf":1,"type":"act","id":"","payload":"02"}],"action":2}]}"# + "\n"))
        let human = try runCLI(["decode", hex])
        #expect(human.stdout == """
            1: Smart Poster https://nfc.org (action open)
              1.1: URI https://nfc.org
              1.2: Text [en] "Hi"
              1.3: TNF 1, type "act", 1 byte: 02

            """)
    }
}
