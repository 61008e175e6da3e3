import ArgumentParser
import Foundation
import NFCTapKit

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the machine for what stops NFC readers working, and print the exact fix.",
        discussion: """
            Checks, in this order: pcscd and the CCID driver installed; the reader access rules
            (60-nfctap.rules) installed for udev; the kernel's nfc/pn533/pn533_usb modules
            blacklisted, and none of them loaded or holding a reader; pcscd running and the readers
            it sees; USB permissions of known readers; what the drivers refuse (ACR122U firmware
            2.05 in libccid, escape commands without ifdDriverOptions 0x0001, a reader pcscd holds
            that libnfc cannot then open); libnfc devices configured and their ports
            accessible; a BlueZ adapter present and powered.

            Exit status: 0 when nothing failed (warnings allowed), 1 when a check failed.
            """
    )

    func run() throws {
        let root = SystemRoot.current
        let env = ProcessInfo.processInfo.environment
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
        findings += LibNFCConfigCheck().run(root, environment: env)
        findings.append(BlueZCheck().run())
        print(DoctorReport.render(findings))
        if findings.contains(where: { $0.status == .failure }) { throw NFCTapExit.failure }
    }
}

enum DoctorReport {
    static func render(_ findings: [DoctorFinding]) -> String {
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
