import Foundation
import RecordOutput

/// How `inventory` writes its records: JSON Lines or CSV (RFC 4180), same columns in both.
package enum InventoryFormat: String, CaseIterable, Sendable {
    case jsonl
    case csv

    /// The format a file name suggests: `.csv` → CSV, anything else → JSON Lines.
    package static func guess(forPath path: String?) -> InventoryFormat {
        guard let path else { return .jsonl }
        return path.lowercased().hasSuffix(".csv") ? .csv : .jsonl
    }

    /// The line written once at the top of a new CSV file (nil for JSON Lines).
    package var header: String? {
        switch self {
        case .jsonl: return nil
        case .csv: return InventoryRecord.columns.map(CSV.field).joined(separator: ",") + CSV.recordEnd
        }
    }

    /// One record as it goes to the file, terminator included.
    package func encode(_ record: InventoryRecord) -> String {
        switch self {
        case .jsonl: return JSONDocument.line(record.json) + "\n"
        case .csv: return record.csvFields.map(CSV.field).joined(separator: ",") + CSV.recordEnd
        }
    }
}

/// RFC 4180 fields, neutralised against spreadsheet formulas (`RecordOutput.CSVCell`); records
/// end with CRLF.
package enum CSV {
    package static let recordEnd = "\r\n"

    package static func field(_ value: String) -> String { CSVCell.field(value) }
}
