import CoreNFCLinux
import Foundation
import NDEF
import Synchronization

/// Turns each tag report into one record, writes it to disk, then confirms it: the session's
/// `tagReportHandler`. The session gives the reader's green light and beep only after `handle`
/// returned true, so a beep (and the "✓" line) means the record is on disk.
package final class InventoryRecorder: Sendable {

    /// Time as the recorder sees it: the wall clock for the record's timestamp, a monotonic
    /// clock for the duplicate window (so a clock change cannot flag or unflag a tap).
    package struct Clock: Sendable {
        package var wall: @Sendable () -> Date
        package var monotonic: @Sendable () -> Duration

        package static var system: Clock {
            let origin = ContinuousClock.now
            return Clock(wall: Date.init, monotonic: { ContinuousClock.now - origin })
        }
    }

    /// Called after a record is on disk, before the reader's feedback; `complete` is false when
    /// the tag could not be read to the end (the reader then shows red).
    package typealias Confirmation = @Sendable (_ record: InventoryRecord, _ complete: Bool, _ stats: InventoryStats) -> Void

    private let output: InventoryOutput
    private let duplicateWindow: Duration
    private let clock: Clock
    private let confirm: Confirmation
    private struct State {
        var sequence = 0
        var lastSeen: [String: Duration] = [:]
        var stats = InventoryStats()
        var failure: InventoryOutputError?
        var onFailure: (@Sendable (InventoryOutputError) -> Void)?
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - duplicateWindow: a tap of a UID recorded less than this before is flagged `duplicate`.
    ///   - confirm: the "✓" line (or the live count).
    package init(output: InventoryOutput, duplicateWindow: Duration, clock: Clock = .system,
         confirm: @escaping Confirmation = { _, _, _ in }) {
        self.output = output
        self.duplicateWindow = duplicateWindow
        self.clock = clock
        self.confirm = confirm
        // Appending to a file: numbering goes on after its records.
        state.withLock { $0.sequence = output.existingRecords }
    }

    /// Told once (on the session's queue) when a record cannot be written; later taps are
    /// refused (red). The command stops the inventory there.
    package var onFailure: (@Sendable (InventoryOutputError) -> Void)? {
        get { state.withLock { $0.onFailure } }
        set { state.withLock { $0.onFailure = newValue } }
    }

    package var stats: InventoryStats { state.withLock { $0.stats } }
    /// The write error that stopped recording, if any.
    package var failure: InventoryOutputError? { state.withLock { $0.failure } }

    /// The session's `tagReportHandler`: true once the tap's record is written and synced.
    package func handle(_ report: NFCTagReport) -> Bool {
        state.withLock { s in record(report, in: &s) }
    }

    /// `handle`'s work, under the lock: numbering, writing and confirming never interleave.
    private func record(_ report: NFCTagReport, in s: inout State) -> Bool {
        guard s.failure == nil else { return false }
        let uid = report.tag.uid.hexString
        let elapsed = clock.monotonic()
        let duplicate = s.lastSeen[uid].map { elapsed - $0 < duplicateWindow } ?? false
        s.sequence += 1
        let record = Self.record(report, sequence: s.sequence, time: clock.wall(), duplicate: duplicate)
        do {
            try output.append(output.format.encode(record))
        } catch {
            let failure = error as? InventoryOutputError
                ?? .io(operation: "writing to", path: output.displayName, errno: EIO)
            s.failure = failure
            s.onFailure?(failure)
            return false
        }
        s.lastSeen[uid] = elapsed
        s.stats.add(record, complete: report.completed)
        confirm(record, report.completed, s.stats)
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
            haTag: message.flatMap(HomeAssistantTag.id(in:)),
            type: report.tag.technology.rawValue,
            product: report.details?.product,
            reader: report.tag.reader.name,
            summary: message.flatMap(InventorySummary.summary(of:)),
            zebraSerial: message.flatMap(InventorySummary.zebraSerial(of:)),
            duplicate: duplicate,
            error: error)
    }
}
