import Foundation
import Testing
@testable import Fleet

/// The record check that replaced JSONSerialization on the forwarder's per-record path
/// (docs/architecture.md "Start-up"): it must say "object" exactly when JSONSerialization parses
/// the line as a JSON object, so the payloads on the wire are what they were.
@Suite struct JSONObjectSyntaxTests {
    static let objects = [
        "{}", " { } ", "{\"a\":1}", "{\"a\":[1,2,{\"b\":null}],\"c\":true,\"d\":false}",
        "{\"n\":-0.5e+10,\"m\":0,\"o\":1E-2,\"p\":123456789012}", "{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}",
        "{\"pair\":\"\\ud83d\\ude00\"}", "{\"utf8\":\"é☃😀\"}", "{\"a\":1,\"a\":2}", "\t{\"a\" : [ ] }\r",
        "{\"seq\":1,\"time\":\"2026-11-25T03:00:00.000Z\",\"uid\":\"04A1B2C3D4E5\",\"summary\":\"https://example.com/a\"}",
    ]
    static let notObjects = [
        "", "[]", "1", "\"x\"", "{", "}", "{\"a\"}", "{\"a\":}", "{,}", "{a:1}", "{'a':1}",
        "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":+1}", "{\"a\":-}", "{\"a\":tru}",
        "{\"a\":nul}", "{\"a\":True}", "{\"a\":\"\u{1}\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}",
        "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"open}",
        "{\"a\":1}x", "{\"a\":1}{}", "{\"a\":[,1]}", "{\"a\":NaN}", "{\"a\":1}}",
    ]

    /// JSONSerialization takes these; a strict consumer would not parse the payload spliced from
    /// them, so they now go out wrapped as `invalidRecord` (valid JSON either way).
    static let trailingCommas = ["{\"a\":1,}", "{\"a\":[1,]}"]

    @Test("agrees with JSONSerialization on objects, near-objects and broken lines, trailing commas aside")
    func agreesWithJSONSerialization() {
        for text in Self.trailingCommas {
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any], "still lenient: \(text)")
            #expect(!JSONObjectSyntax.isObject(Array(text.utf8)[...]), "\(text)")
        }
        for text in Self.objects + Self.notObjects {
            let bytes = Array(text.utf8)[...]
            let foundation = (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any]
            #expect(JSONObjectSyntax.isObject(bytes) == foundation, "\(text)")
        }
        for text in Self.objects { #expect(JSONObjectSyntax.isObject(Array(text.utf8)[...]), "\(text)") }
        for text in Self.notObjects { #expect(!JSONObjectSyntax.isObject(Array(text.utf8)[...]), "\(text)") }
    }

    @Test("bytes that are not UTF-8 are no object, even inside a string")
    func invalidUTF8() {
        #expect(!JSONObjectSyntax.isObject([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D][...]))
        #expect(!JSONObjectSyntax.isObject([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x22, 0x7D][...]))
    }

    @Test("nesting is bounded: a deep line is refused, never a crash")
    func deepNesting() {
        let deep = "{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(!JSONObjectSyntax.isObject(Array(deep.utf8)[...]))
        let fine = "{\"a\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(JSONObjectSyntax.isObject(Array(fine.utf8)[...]))
    }

    @Test("every payload is one JSON object carrying the record id")
    func payloadsParse() throws {
        for text in Self.objects + Self.notObjects + Self.trailingCommas {
            let payload = RecordID.payload(record: Array(text.utf8)[...], id: "s-f-1")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any], "\(text)")
            #expect(object["recordId"] as? String == "s-f-1")
            if !Self.objects.contains(text) { #expect(object["invalidRecord"] as? String == text, "\(text)") }
            if Self.objects.contains(text), text.hasPrefix("{") || text.hasPrefix(" {") { #expect(object["invalidRecord"] == nil, "\(text)") }
        }
    }

    @Test("the retained status is the same JSON as before: sorted keys, slashes unescaped")
    func statusPayloadText() throws {
        let configuration = ForwarderConfiguration(
            outboxPath: "/tmp/x.jsonl", url: try PublishURL.parse("mqtt://b/site/a/taps"), stationID: "6a49")
        let payload = String(decoding: Forwarder(configuration: configuration).statusPayload(state: "offline"), as: UTF8.self)
        #expect(payload == "{\"clientId\":\"\(configuration.clientID)\",\"state\":\"offline\",\"stationId\":\"6a49\",\"topic\":\"site/a/taps\"}")
    }
}
