/// The udev rules that give the logged-in user and group plugdev the readers' USB nodes
/// (udev/60-nfctap.rules; libnfc's direct USB drivers need them, pcscd does not).
package struct UdevRulesCheck {
    package init() {}

    /// Where udev reads rules from: the administrator's copy, then the package's.
    package static let locations = ["/etc/udev/rules.d/60-nfctap.rules", "/usr/lib/udev/rules.d/60-nfctap.rules",
                            "/lib/udev/rules.d/60-nfctap.rules"]

    package func run(_ root: SystemRoot) -> DoctorFinding {
        if let found = Self.locations.first(where: { root.exists($0) }) {
            let text = root.read(found) ?? ""
            if text.contains("idVendor") {
                return DoctorFinding(check: "udev-rules", status: .ok, summary: "reader access rules installed (\(found))", fix: nil)
            }
            return DoctorFinding(check: "udev-rules", status: .warning,
                                 summary: "\(found) holds no reader rule (empty or not nfctap's)", fix: Self.fix)
        }
        return DoctorFinding(check: "udev-rules", status: .warning,
                             summary: "the reader access rules (60-nfctap.rules) are not installed: libnfc's USB drivers need root",
                             fix: Self.fix)
    }

    package static var fix: String {
        DoctorAdvice.asRoot("install -m 644 udev/60-nfctap.rules /etc/udev/rules.d/", "udevadm control --reload",
                            "udevadm trigger") + " " + DoctorAdvice.fromSource
    }
}
