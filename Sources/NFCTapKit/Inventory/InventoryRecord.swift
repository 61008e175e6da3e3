import Foundation
import RecordOutput

/// One tap as `inventory` records it: a line of JSON Lines or a CSV row, same columns.
package struct InventoryRecord: Equatable {
    /// 1, 2, 3, … in the order the taps were read; a run appending to a file goes on from its
    /// last record.
    package var sequence: Int
    package var time: Date
    /// Hex, upper case, no separators (as `scan --json` prints it).
    package var uid: String
    /// Home Assistant's tag id when the tag holds HA's tag URL (`HomeAssistantTag`); JSON only.
    package var haTag: String? = nil
    /// `type2`, `type4` or `other`.
    package var type: String
    package var product: String?
    package var reader: String
    /// The first URI or text on the tag, else the first record's type (see `InventorySummary`).
    package var summary: String?
    package var zebraSerial: String?
    /// The same UID was recorded less than `--duplicate-window` before.
    package var duplicate: Bool
    /// Why the tag could not be read to the end (the tap is still recorded).
    package var error: String?

    package static let columns = ["seq", "time", "uid", "type", "product", "reader", "summary", "zebraSerial", "duplicate", "error"]

    /// ISO 8601 in UTC with milliseconds: `2025-03-04T05:06:07.089Z`.
    package static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    package var json: JSONValue {
        func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        var fields: [(String, JSONValue)] = [
            ("seq", .int(sequence)),
            ("time", .string(Self.timestamp(time))),
            ("uid", .string(uid)),
        ]
        if let haTag { fields.append(("haTag", .string(haTag))) }
        return .object(fields + [
            ("type", .string(type)),
            ("product", optional(product)),
            ("reader", .string(reader)),
            ("summary", optional(summary)),
            ("zebraSerial", optional(zebraSerial)),
            ("duplicate", .bool(duplicate)),
            ("error", optional(error)),
        ])
    }

    /// The CSV row in `columns` order; absent values are empty fields.
    package var csvFields: [String] {
        [String(sequence), Self.timestamp(time), uid, type, product ?? "", reader, summary ?? "",
         zebraSerial ?? "", duplicate ? "true" : "false", error ?? ""]
    }
}
