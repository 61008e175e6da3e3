/// A JSON value for nfctap's machine output. Objects keep their keys in the order given, so
/// output is stable and reads in a sensible order (`tnf`, `type`, … before decoded fields).
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number already written as a JSON literal (e.g. a 64-bit unsigned value).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}

/// Writes `JSONValue` as compact JSON text (one line: suitable for JSON Lines). Strings are
/// escaped by `JSONString`; other characters, non-ASCII included, are written as UTF-8.
extension JSONValue {
    package var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    package func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .int(i): out += String(i)
        case let .double(d): out += d.isFinite ? "\(d)" : "null"  // JSON has no NaN/Infinity
        case let .number(literal): out += literal
        case let .string(s): JSONString.append(s, to: &out)
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case let .object(fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSONString.append(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}
