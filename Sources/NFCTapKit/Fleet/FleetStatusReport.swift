import SafeText
import Fleet
import Foundation
import RecordOutput

/// What `fleet status` shows.
package struct FleetStatusReport {
    package var file: String
    package var position: OutboxPosition?
    package var backlog: Backlog
    package var lastAcknowledged: Date?

    package init(file: String, now: Date = Date()) throws {
        self.file = file
        let positionPath = OutboxPosition.path(forOutbox: file)
        let reader = try OutboxReader(path: file)  // no symbolic link, FIFO or device
        position = try OutboxPosition.load(path: positionPath)
        if let p = position, p.inode != reader.inode || p.offset > reader.size { position = nil }
        backlog = try Backlog.measure(path: file, from: position?.offset ?? 0)
        if position != nil, let attributes = try? FileManager.default.attributesOfItem(atPath: positionPath) {
            lastAcknowledged = attributes[.modificationDate] as? Date
        }
    }

    package var oldestAge: Double? { backlog.oldestTime.map { max(0, Date().timeIntervalSince($0)) } }

    package var lines: [String] {
        var out = ["File: \(file)"]
        if let position {
            out.append("Published: \(position.records) records (\(position.offset) bytes) acknowledged; file id \(position.fileID)")
        } else {
            out.append("Published: nothing yet (no position file for this file)")
        }
        var backlogLine = "Backlog: \(backlog.records) records, \(backlog.bytes) bytes"
        if let age = oldestAge { backlogLine += String(format: ", oldest %.1f s old", age) }
        out.append(backlogLine)
        if let lastAcknowledged {
            out.append(String(format: "Last acknowledgement saved %.1f s ago", max(0, Date().timeIntervalSince(lastAcknowledged))))
        }
        return out
    }

    /// One object, keys in this order (docs/json-output.md).
    package var json: String {
        JSONDocument.line(.object([
            ("file", .string(file)),
            ("acknowledgedRecords", .number(String(position?.records ?? 0))),
            ("acknowledgedBytes", .number(String(position?.offset ?? 0))),
            ("backlogRecords", .number(String(backlog.records))),
            ("backlogBytes", .number(String(backlog.bytes))),
            ("fileId", position.map { .string($0.fileID) } ?? .null),
            ("oldestUnsentAgeSeconds", oldestAge.map { .double($0) } ?? .null),
            ("lastAcknowledgedAgeSeconds", lastAcknowledged.map { .double(max(0, Date().timeIntervalSince($0))) } ?? .null),
        ]))
    }

    /// `fleet status`: measures `file` and prints the report (text lines, or one JSON object).
    /// - Throws: `CLIError` (exit 1) when the file is unreadable or its position file invalid.
    package static func show(file: String, json: Bool) throws(CLIError) {
        let report: FleetStatusReport
        do {
            report = try FleetStatusReport(file: file)
        } catch {
            throw CLIError(SafeText.escaped("\(error)"))
        }
        if json {
            print(report.json)
        } else {
            for line in report.lines { Stdout.line(line) }
        }
    }
}
