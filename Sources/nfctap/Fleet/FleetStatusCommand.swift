import ArgumentParser
import Fleet
import Foundation
import NFCTapKit
import RecordOutput

/// `nfctap fleet status FILE`: the published position of a record file and its backlog.
struct FleetStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "How many records of a file are not yet acknowledged by the broker, and how old the oldest is.",
        discussion: """
            Reads FILE and FILE.fleet-position (written by the forwarder); changes neither. \
            The oldest record's age comes from its "time" field (inventory records have one).
            Exit codes: 0 shown, 1 FILE unreadable or its position file invalid.
            """)

    @Argument(help: ArgumentHelp("The JSONL record file (inventory --output, the kiosk's output).", valueName: "file"))
    var file: String

    @Flag(help: "One JSON object on stdout instead of text.")
    var json = false

    func run() throws {
        let report: FleetStatusReport
        do {
            report = try FleetStatusReport(file: file)
        } catch {
            throw CLIError(NDEFText.safe("\(error)"))
        }
        // File names are the user's bytes: C1 and bidi controls escaped like every other output.
        if json {
            print(JSONString.hardened(json: report.json))
        } else {
            for line in report.lines { print(NDEFText.safe(line)) }
        }
    }
}

/// What `fleet status` shows.
struct FleetStatusReport {
    var file: String
    var position: OutboxPosition?
    var backlog: Backlog
    var lastAcknowledged: Date?

    init(file: String, now: Date = Date()) throws {
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

    var oldestAge: Double? { backlog.oldestTime.map { max(0, Date().timeIntervalSince($0)) } }

    var lines: [String] {
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
    var json: String {
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
}
