import CoreNFCLinux
import RecordOutput

/// `"action": "json"`: one `TagReportJSON` line per tap (every tap, failed reads included, with
/// their `error`). Success = the line was written (and synced).
package final class JSONLineAction: KioskAction {
    private let output: KioskOutput

    package init(output: KioskOutput) {
        self.output = output
    }

    package func handle(_ report: NFCTagReport) -> KioskActionResult {
        do {
            try output.write(line: JSONDocument.line(TagReportJSON.object(report)))
            return .success("line written", ["output": "\(output.path)"])
        } catch {
            return .failure("\(error)", ["output": "\(output.path)"])
        }
    }

    package func close() { output.close() }
}
