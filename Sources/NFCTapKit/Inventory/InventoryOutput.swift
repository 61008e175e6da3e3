import Foundation
import RecordOutput

/// Where `inventory` records go: a `DurableRecordFile` (the writer `kiosk` uses too: every record
/// written and synced before the tap is confirmed, a foreign file refused untouched, one process
/// per file, a torn record cut off, a deleted or rotated file reopened), or stdout.
package final class InventoryOutput: Sendable {
    package let format: InventoryFormat
    package let file: DurableRecordFile

    /// The file, or nil for stdout.
    package var path: String? { file.path }
    /// The file did not exist and was created.
    package var created: Bool { file.created }
    /// Bytes of an unconfirmed partial record cut off at opening.
    package var discardedBytes: Int { file.discardedBytes }
    /// Complete records the file held when it was opened (0 for stdout): the next record's
    /// sequence number follows them.
    package var existingRecords: Int { file.existingRecords }
    /// What users see as the destination.
    package var displayName: String { file.displayName }

    /// Opens (or creates) `path` for appending records.
    /// - Parameters:
    ///   - calls: the system calls of an append (tests make the disk fail).
    ///   - warn: told when a partial record is cut off, or the file is reopened.
    /// - Throws: `InventoryOutputError` (`RecordFileError`).
    package init(path: String, format: InventoryFormat, calls: FileCalls = .system, warn: @escaping (String) -> Void) throws {
        self.format = format
        file = try DurableRecordFile(path: path, format: format.recordFormat, mode: 0o644, calls: calls, warn: warn)
    }

    /// Writes records to stdout (a CSV header first, unless stdout is a non-empty file).
    /// - Throws: `InventoryOutputError.io` when stdout cannot be written.
    package init(standardOutputWith format: InventoryFormat) throws {
        self.format = format
        file = try DurableRecordFile(standardOutput: format.recordFormat)
    }

    /// Writes `text` (one or more whole records) and syncs it to the device before returning.
    /// On failure the file is cut back to its last complete record.
    package func append(_ text: String) throws { try file.append(text) }

    /// SIGHUP: opens the path again when it no longer names the open file (logrotate).
    package func reopen() throws { try file.reopen() }
}

/// Why `inventory` cannot write its records (the shared writer's errors).
package typealias InventoryOutputError = RecordFileError

extension InventoryFormat {
    /// How the shared writer recognises an inventory of this format.
    package var recordFormat: RecordFileFormat {
        switch self {
        case .jsonl: return .jsonLines(requiringAnyOf: [["seq", "time", "uid"]], firstKeys: ["schemaVersion", "seq"])
        case .csv: return .csv(header: header!)
        }
    }
}
