import RecordOutput

/// The bytes of `<file>.fleet-position` (read back by `JSONDecoder` in `load`). Absent optionals
/// are left out.
extension OutboxPosition {
    var jsonBytes: [UInt8] {
        var fields: [(String, JSONValue)] = [("device", .number(String(device))), ("fileID", .string(fileID))]
        if let head { fields.append(("head", .string(head))) }
        fields.append(("inode", .number(String(inode))))
        if let modified, modified.isFinite { fields.append(("modified", .double(modified))) }
        fields += [("offset", .number(String(offset))), ("records", .number(String(records)))]
        return Array(JSONValue.object(fields).jsonText.utf8)
    }
}
