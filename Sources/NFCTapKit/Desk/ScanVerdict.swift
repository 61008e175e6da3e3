import CoreNFCLinux
import ReaderCore
import Synchronization

/// A scan's `tagReportHandler`: which reports the reader confirms (green + beep). It runs on the
/// reader's lane before the report reaches the scan's event loop; a single scan confirms the
/// first complete report only, and the loop prints that one (`isWinner`).
package final class ScanVerdict: Sendable {
    private let multi: Bool
    private let winner = Mutex<DetectedTag?>(nil)

    package init(multi: Bool) {
        self.multi = multi
    }

    /// True when the reader may confirm the tap.
    package func confirm(_ report: NFCTagReport) -> Bool {
        guard report.completed else { return false }
        if multi { return true }
        return winner.withLock { winner in
            guard winner == nil else { return false }  // a second tag of the same batch
            winner = report.tag
            return true
        }
    }

    /// True for the report a single scan confirmed.
    package func isWinner(_ report: NFCTagReport) -> Bool {
        report.completed && winner.withLock { $0 == report.tag }
    }
}
