import RecordOutput

/// The bytes of `<file>.fleet-position`, written without `JSONEncoder`: the same text its
/// `.sortedKeys` output has (keys in byte order, absent optionals left out, a whole `modified`
/// without `.0`), so files written before and after read the same. `JSONEncoder` cost a station
/// ≈ 1 M instructions and its first use's pages on every start (docs/architecture.md "Start-up").
extension OutboxPosition {
    var jsonBytes: [UInt8] {
        var out = "{"
        func key(_ name: String) {
            if out.utf8.count > 1 { out += "," }
            JSONString.append(name, to: &out)
            out += ":"
        }
        key("device"); out += String(device)
        key("fileID"); JSONString.append(fileID, to: &out)
        if let head { key("head"); JSONString.append(head, to: &out) }
        key("inode"); out += String(inode)
        if let modified { key("modified"); out += Self.jsonNumber(modified) }
        key("offset"); out += String(offset)
        key("records"); out += String(records)
        out += "}"
        return Array(out.utf8)
    }

    /// A finite Double as JSON: Swift's shortest round-trip text, a whole value without `.0`
    /// (JSONEncoder's form). Not finite: 0 (`load` refuses such a position anyway).
    static func jsonNumber(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
