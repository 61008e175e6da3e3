/// pcscd and the CCID driver that USB readers need.
package struct PCSCInstallCheck {
    package init() {}

    package func run(_ root: SystemRoot) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if root.exists("/usr/sbin/pcscd") {
            findings.append(DoctorFinding(check: "pcscd-installed", status: .ok, summary: "pcscd is installed", fix: nil))
        } else {
            findings.append(DoctorFinding(check: "pcscd-installed", status: .failure,
                                          summary: "pcscd is not installed: PC/SC readers cannot be used",
                                          fix: DoctorAdvice.asRoot("apt-get install pcscd libccid")))
        }
        if root.exists("/usr/lib/pcsc/drivers/ifd-ccid.bundle") {
            findings.append(DoctorFinding(check: "ccid-driver", status: .ok, summary: "the CCID driver (libccid) is installed", fix: nil))
        } else {
            findings.append(DoctorFinding(check: "ccid-driver", status: .failure,
                                          summary: "the CCID driver is missing: pcscd will not see USB readers",
                                          fix: DoctorAdvice.asRoot("apt-get install libccid")))
        }
        return findings
    }
}
