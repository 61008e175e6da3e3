import Foundation

/// `nfctap doctor`'s checks in order, and their report on stdout.
package enum DoctorReport {
    /// Runs every check and prints the report; false when a check failed (exit 1).
    package static func run(root: SystemRoot = .current, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        var findings: [DoctorFinding] = []
        // Installed files first, then what runs: a later fix may point back at an earlier line.
        findings += PCSCInstallCheck().run(root)
        findings.append(UdevRulesCheck().run(root))
        findings.append(ModuleBlacklistCheck().run(root))
        findings.append(KernelModuleCheck().run(root))
        findings += PCSCRuntimeCheck().run()
        findings += PCSCVersionCheck().run(root)
        findings += USBPermissionCheck().run(root)
        findings += USBReaderDriverCheck().run(root)
        findings += LibNFCConfigCheck().run(root, environment: environment)
        findings.append(BlueZCheck().run())
        Stdout.line(render(findings))
        return !findings.contains(where: { $0.status == .failure })
    }

    package static func render(_ findings: [DoctorFinding]) -> String {
        var lines: [String] = []
        for f in findings {
            let mark: String
            switch f.status {
            case .ok: mark = "ok  "
            case .info: mark = "info"
            case .warning: mark = "warn"
            case .failure: mark = "FAIL"
            }
            lines.append("[\(mark)] \(f.check): \(f.summary)")
            if let fix = f.fix, f.status == .failure || f.status == .warning { lines.append("       fix: \(fix)") }
        }
        let failures = findings.filter { $0.status == .failure }.count
        let warnings = findings.filter { $0.status == .warning }.count
        lines.append(failures == 0 && warnings == 0 ? "All checks passed." : "\(failures) failed, \(warnings) warning(s).")
        return lines.joined(separator: "\n")
    }
}
