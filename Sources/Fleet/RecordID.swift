import Foundation
import RecordOutput

/// The stable id of one record: `<station-id>-<file-id>-<seq>`, where station-id is `StationIdentity.stationID` (never the raw
/// machine id), file-id is the UUID kept
/// in the file's position file (created with it) and seq the record's line number in the file
/// (1-based). A record published twice (after a reconnect or a restart) has the same id, so a
/// consumer keeps the first and drops the rest.
public enum RecordID {
    public static func make(stationID: String, fileID: String, sequence: UInt64) -> String {
        "\(stationID)-\(fileID)-\(sequence)"
    }

    /// The message standing for a line over `OutboxReader.maxRecordBytes`:
    /// `{"recordId": …, "oversizedRecord": <its length in bytes>}` (never a fragment of it).
    public static func oversizedPayload(id: String, length: UInt64) -> [UInt8] {
        Array("{\"recordId\":\"\(id)\",\"oversizedRecord\":\(length)}".utf8)
    }

    /// The message for one JSONL record: the record's JSON object with `"recordId"` first.
    /// Whether the line is one is `JSONSerialization`'s verdict (which, in swift-corelibs-foundation,
    /// also takes a trailing comma). A line that is not a JSON object (never written by nfctap) is wrapped as
    /// `{"recordId": …, "invalidRecord": "<the line>"}` rather than dropped.
    public static func payload(record line: ArraySlice<UInt8>, id: String) -> [UInt8] {
        var body = line
        while let last = body.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") { body = body.dropLast() }
        while let first = body.first, first == UInt8(ascii: " ") { body = body.dropFirst() }
        let idField = Array("\"recordId\":\"\(id)\"".utf8)
        if body.first == UInt8(ascii: "{"), body.last == UInt8(ascii: "}"), (try? JSONSerialization.jsonObject(with: Data(body))) is [String: Any] {
            var inner = body.dropFirst().dropLast()
            while let first = inner.first, first == UInt8(ascii: " ") { inner = inner.dropFirst() }
            var out: [UInt8] = [UInt8(ascii: "{")] + idField
            if !inner.isEmpty { out.append(UInt8(ascii: ",")) }
            out += inner
            out.append(UInt8(ascii: "}"))
            return out
        }
        // Keys in sorted order, as before (JSONSerialization with .sortedKeys).
        var out = "{\"invalidRecord\":"
        JSONString.append(String(decoding: body, as: UTF8.self), to: &out)
        out += ",\"recordId\":"
        JSONString.append(id, to: &out)
        out += "}"
        return Array(out.utf8)
    }
}
