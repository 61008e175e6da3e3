import Foundation
import RecordOutput
import Testing

/// The one JSON writer (docs/json-output.md, "One writer, one key order").
@Suite("JSON writer: key order, schemaVersion first, numbers")
struct JSONDocumentTests {
    @Test("objects keep the order they were built in, after schemaVersion; a given schemaVersion is replaced")
    func keyOrder() {
        let line = JSONDocument.line(.object([("z", .int(1)), ("schemaVersion", .int(9)), ("a", .array([.null, .bool(true)]))]))
        #expect(line == #"{"schemaVersion":1,"z":1,"a":[null,true]}"#)
    }

    @Test("a top-level array gets schemaVersion in each of its objects, nothing else changes")
    func arrays() {
        let line = JSONDocument.line(.array([.object([("name", .string("r"))]), .int(2)]))
        #expect(line == #"[{"schemaVersion":1,"name":"r"},2]"#)
    }

    @Test("numbers: integers, literals, doubles as Swift prints them, non-finite doubles as null")
    func numbers() {
        let value = JSONValue.array([.int(-3), .number("18446744073709551615"), .double(2.5), .double(1e300), .double(.nan), .double(.infinity)])
        #expect(value.jsonText == "[-3,18446744073709551615,2.5,1e+300,null,null]")
    }

    @Test("strings and keys escape as JSONString does; parsing JSON keeps integers, reals and booleans apart")
    func stringsAndParsing() throws {
        let value = JSONValue.object([("k\u{9B}", .string("a\u{202E}\n\"/"))])
        #expect(value.jsonText == #"{"k\u009b":"a\u202e\n\"/"}"#)
        #expect(JSONValue(parsing: Array(#"{"b":[1,2.5,true,null],"a":"x"}"#.utf8))
                == .object([("a", .string("x")), ("b", .array([.int(1), .double(2.5), .bool(true), .null]))]))
        #expect(JSONValue(parsing: Array("{".utf8)) == nil)
    }
}
