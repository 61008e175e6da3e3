import Foundation

/// The records of a file not yet acknowledged: how many, how many bytes, and when the oldest was
/// written (its "time" field, which inventory records have).
public struct Backlog: Equatable, Sendable {
    public var records: UInt64
    public var bytes: UInt64
    /// The oldest unacknowledged record's "time"; nil when there is none or it has no time field.
    public var oldestTime: Date?

    /// Counts complete records after `offset` (partial last lines are not records yet).
    /// - Throws: `FleetError.io` when the file cannot be read.
    public static func measure(path: String, from offset: UInt64) throws -> Backlog {
        let reader = try OutboxReader(path: path, offset: offset)
        var backlog = Backlog(records: 0, bytes: 0, oldestTime: nil)
        var first = true
        while let record = try reader.next() {
            if first {
                backlog.oldestTime = recordTime(record.bytes)
                first = false
            }
            backlog.records += 1
            backlog.bytes = record.end - offset
        }
        return backlog
    }

    /// Adds a later file's backlog (its records are newer).
    mutating func add(_ later: Backlog) {
        records += later.records
        bytes += later.bytes
        if oldestTime == nil, records == later.records { oldestTime = later.oldestTime }
    }

    /// The record's "time" (ISO 8601 with or without milliseconds), if it has one.
    static func recordTime(_ record: ArraySlice<UInt8>) -> Date? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(record)) as? [String: Any],
              let text = object["time"] as? String else { return nil }
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        return ISO8601DateFormatter().date(from: text)
    }
}
