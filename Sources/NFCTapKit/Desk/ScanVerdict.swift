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
    /// A single scan's first final report wins (`NFCTagReport.isFinal`), a refused one too: it is
    /// red, and ends the scan with exit 1.
    package func confirm(_ report: NFCTagReport) -> Bool {
        if multi { return report.completed }
        guard report.isFinal else { return false }
        return winner.withLock { winner in
            guard winner == nil else { return false }  // a second tag of the same batch
            winner = report.tag
            return report.completed
        }
    }

    /// True for the report that ends a single scan.
    package func isWinner(_ report: NFCTagReport) -> Bool {
        report.isFinal && winner.withLock { $0 == report.tag }
    }
}
