import RecordOutput

/// Writes `JSONValue` as compact JSON text (one line: suitable for JSON Lines).
/// Strings escape `"`, `\`, C0/C1 controls, DEL, bidi controls and U+2028/U+2029 as `\uXXXX`
/// (`JSONString`); other characters, non-ASCII included, are written as UTF-8.
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
        case let .string(s): Self.writeString(s, to: &out)
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
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// The shared escaping of every JSON output (`RecordOutput.JSONString`).
    package static func writeString(_ s: String, to out: inout String) {
        JSONString.append(s, to: &out)
    }
}
