import CoreNFCLinux
import Foundation
import NDEF

/// Turns each tag report into one record, writes it to disk, then confirms it: the session's
/// `tagReportHandler`. The session gives the reader's green light and beep only after `handle`
/// returned true, so a beep (and the "✓" line) means the record is on disk.
package final class InventoryRecorder: @unchecked Sendable {
    // @unchecked: every mutable field sits behind `lock`; `handle` runs on the session's queue.

    /// Time as the recorder sees it: the wall clock for the record's timestamp, a monotonic
    /// clock for the duplicate window (so a clock change cannot flag or unflag a tap).
    package struct Clock {
        package var wall: () -> Date
        package var monotonic: () -> Duration

        package static var system: Clock {
            let origin = ContinuousClock.now
            return Clock(wall: Date.init, monotonic: { ContinuousClock.now - origin })
        }
    }

    /// Called after a record is on disk, before the reader's feedback; `complete` is false when
    /// the tag could not be read to the end (the reader then shows red).
    package typealias Confirmation = (_ record: InventoryRecord, _ complete: Bool, _ stats: InventoryStats) -> Void

    private let output: InventoryOutput
    private let duplicateWindow: Duration
    private let clock: Clock
    private let confirm: Confirmation
    private let lock = NSLock()
    private var sequence = 0
    private var lastSeen: [String: Duration] = [:]
    private var _stats = InventoryStats()
    private var _failure: InventoryOutputError?
    private var _onFailure: ((InventoryOutputError) -> Void)?

    /// - Parameters:
    ///   - duplicateWindow: a tap of a UID recorded less than this before is flagged `duplicate`.
    ///   - confirm: the "✓" line (or the live count).
    package init(output: InventoryOutput, duplicateWindow: Duration, clock: Clock = .system,
         confirm: @escaping Confirmation = { _, _, _ in }) {
        self.output = output
        // Appending to a file: numbering goes on after its records.
        self.sequence = output.existingRecords
        self.duplicateWindow = duplicateWindow
        self.clock = clock
        self.confirm = confirm
    }

    /// Told once (on the session's queue) when a record cannot be written; later taps are
    /// refused (red). The command stops the inventory there.
    package var onFailure: ((InventoryOutputError) -> Void)? {
        get { lock.withLock { _onFailure } }
        set { lock.withLock { _onFailure = newValue } }
    }

    package var stats: InventoryStats { lock.withLock { _stats } }
    /// The write error that stopped recording, if any.
    package var failure: InventoryOutputError? { lock.withLock { _failure } }

    /// The session's `tagReportHandler`: true once the tap's record is written and synced.
    package func handle(_ report: NFCTagReport) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard _failure == nil else { return false }
        let uid = report.tag.uid.hexString
        let elapsed = clock.monotonic()
        let duplicate = lastSeen[uid].map { elapsed - $0 < duplicateWindow } ?? false
        sequence += 1
        let record = Self.record(report, sequence: sequence, time: clock.wall(), duplicate: duplicate)
        do {
            try output.append(output.format.encode(record))
        } catch {
            let failure = error as? InventoryOutputError
                ?? .io(operation: "writing to", path: output.displayName, errno: EIO)
            _failure = failure
            _onFailure?(failure)
            return false
        }
        lastSeen[uid] = elapsed
        _stats.add(record, complete: report.completed)
        confirm(record, report.completed, _stats)
        return true
    }

    /// The record for one report.
    package static func record(_ report: NFCTagReport, sequence: Int, time: Date, duplicate: Bool) -> InventoryRecord {
        let message = report.ndefMessage
        var error: String?
        if let e = report.error, e.code != .ndefReaderSessionErrorZeroLengthMessage {
            error = e.localizedDescription
        } else if report.ndefDecodingError != nil {
            error = "malformed NDEF message"
        }
        return InventoryRecord(
            sequence: sequence, time: time,
            uid: report.tag.uid.hexString,
            type: report.tag.technology.rawValue,
            product: report.details?.product,
            reader: report.tag.reader.name,
            summary: message.flatMap(InventorySummary.summary(of:)),
            zebraSerial: message.flatMap(InventorySummary.zebraSerial(of:)),
            duplicate: duplicate,
            error: error)
    }
}
