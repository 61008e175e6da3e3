import CoreNFCLinux
import Foundation
import Logging
import NDEF
import Pairing
import RecordOutput
import ZebraPrinter

/// `"action": "exec"`: runs the configured program once per tap read to the end, with
///
/// - stdin: the tag as one `TagReportJSON` line (the same object `json` writes), then end of file;
/// - environment: nfctap's own without any tag variable, plus `NFCTAP_UID`, `NFCTAP_TYPE`,
///   `NFCTAP_READER`, `NFCTAP_PRODUCT` (when known), `NFCTAP_URI` (the first URI record) and, for
///   a Zebra printer tag, the `pair` hook's variables (`NFCTAP_SERIAL`, `NFCTAP_BT_MAC`, …).
///
/// Success = exit status 0 within the timeout. A tap whose read did not complete (tag pulled
/// away) runs nothing and is a failure.
package final class ExecTagAction: KioskAction {
    package let arguments: [String]
    package let timeout: Duration
    private let runner: any ProgramRunning
    private let inherited: [String: String]

    package init(arguments: [String], timeout: Duration, runner: any ProgramRunning,
         inherited: [String: String] = ProcessInfo.processInfo.environment) {
        self.arguments = arguments
        self.timeout = timeout
        self.runner = runner
        self.inherited = inherited
    }

    /// Every variable name a tag may set; removed from the inherited environment first, so a
    /// variable of an earlier tag (or of nfctap's own environment) never leaks into this one.
    package static let tagVariableNames: Set<String> = [
        "NFCTAP_UID", "NFCTAP_TYPE", "NFCTAP_READER", "NFCTAP_PRODUCT", "NFCTAP_URI",
        "NFCTAP_SERIAL", "NFCTAP_MODEL", "NFCTAP_BT_MAC", "NFCTAP_BLE_MAC", "NFCTAP_WIFI_MAC",
        "NFCTAP_ETHERNET_MAC", "NFCTAP_VERSION",
    ]

    /// The tag's variables (only those it has).
    /// - Throws: `PairingError.unsafeValue` when a value holds a NUL byte.
    package static func variables(for report: NFCTagReport) throws -> [String: String] {
        var vars: [String: String] = [
            "NFCTAP_UID": report.tag.uid.hexString,
            "NFCTAP_TYPE": report.tag.technology.rawValue,
            "NFCTAP_READER": report.tag.reader.name,
        ]
        if let product = report.details?.product { vars["NFCTAP_PRODUCT"] = product }
        if let message = report.ndefMessage {
            for record in message.records {
                if case let .uri(uri)? = try? record.parsed(mode: .relaxed) {
                    vars["NFCTAP_URI"] = uri.uri
                    break
                }
            }
            if let identity = try? ZebraTag.identity(from: message) {
                for (k, v) in try ExecPairingHandler.variables(for: identity) { vars[k] = v }
            }
        }
        for (name, value) in vars where value.utf8.contains(0) { throw PairingError.unsafeValue(field: name) }
        return vars
    }

    package func handle(_ report: NFCTagReport) -> KioskActionResult {
        let program = arguments[0]
        guard report.completed else {
            return .failure("read incomplete, \(program) not run", ["program": "\(program)"])
        }
        do {
            var env = inherited
            for name in Self.tagVariableNames { env[name] = nil }
            for (k, v) in try Self.variables(for: report) { env[k] = v }
            let input = Array((JSONDocument.line(TagReportJSON.object(report)) + "\n").utf8)
            let status = try runner.run(arguments: arguments, environment: env, input: input, timeout: timeout)
            let metadata: [String: Logger.MetadataValue] = ["program": "\(program)", "status": "\(status)"]
            return status == 0 ? .success("program succeeded", metadata) : .failure("program failed with exit status \(status)", metadata)
        } catch {
            return .failure("\(error)", ["program": "\(program)"])
        }
    }

    package func close() {}
}
