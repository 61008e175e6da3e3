import NDEF
import Testing
import ZebraPrinter

/// `ZebraTag.identity(from:)`: the message-level entry point used by `decode`, `scan` and `pair`.
@Suite struct ZebraTagMessageTests {
    static let zq320 = "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0"

    @Test func findsTheZebraURIRecordAmongOthers() throws {
        let message = NDEFMessage(records: [
            try NDEFRecord.text("hello", language: "en"),
            NDEFRecord.uri("https://example.com/"),
            NDEFRecord.uri(Self.zq320),
        ])
        let identity = try #require(try ZebraTag.identity(from: message))
        #expect(identity.serial == "XXZFJ170700336")
        #expect(identity.bluetooth?.description == "CC:78:AB:3E:BA:E0")
    }

    @Test func nonZebraAndLookalikeTagsAreNil() throws {
        #expect(try ZebraTag.identity(from: NDEFMessage(records: [NDEFRecord.uri("https://example.com/")])) == nil)
        let lookalike = "http://www.zebra.com.evil.example/apps/r/nfc?mB=cc78ab3ebae0&s=X"
        #expect(try ZebraTag.identity(from: NDEFMessage(records: [NDEFRecord.uri(lookalike)])) == nil)
        #expect(try ZebraTag.identity(from: NDEFMessage(records: [])) == nil)
    }

    @Test func aZebraURLWithABadQueryThrows() {
        let bad = "http://www.zebra.com/apps/r/nfc?mB=cc78ab3eba&s=XXZFJ170700336"
        #expect(throws: ZebraTagError.self) {
            try ZebraTag.identity(from: NDEFMessage(records: [NDEFRecord.uri(bad)]))
        }
    }
}
