
/// The kernel's NFC stack (`nfc`, `pn533`, `pn533_usb`) binds PN533-based readers (ACR122U, SCL3711)
/// and hides them from pcscd and libnfc.
package struct KernelModuleCheck {
    package init() {}

    package static let modules = ["pn533_usb", "pn533", "nfc"]

    package func run(_ root: SystemRoot) -> DoctorFinding {
        let loaded = (root.read("/proc/modules") ?? "")
            .split(separator: "\n")
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { Self.modules.contains($0) }
        // Interfaces currently bound to pn533_usb, e.g. "1-1:1.0".
        let bound = root.list("/sys/bus/usb/drivers/pn533_usb").filter { $0.first?.isNumber == true }
        // Unloading is the fix here; keeping them off at the next plug-in is module-blacklist's.
        let fix = DoctorAdvice.asRoot("modprobe -r pn533_usb pn533 nfc") + "   (and see module-blacklist above)"
        if !bound.isEmpty {
            return DoctorFinding(check: "kernel-modules", status: .failure,
                                 summary: "the kernel's pn533_usb driver holds a reader (\(bound.joined(separator: ", "))): pcscd and libnfc cannot open it",
                                 fix: fix)
        }
        if !loaded.isEmpty {
            return DoctorFinding(check: "kernel-modules", status: .warning,
                                 summary: "kernel NFC modules loaded (\(loaded.joined(separator: ", "))): they will grab an ACR122U or SCL3711 when plugged in",
                                 fix: fix)
        }
        return DoctorFinding(check: "kernel-modules", status: .ok,
                             summary: "no kernel NFC module is loaded", fix: nil)
    }
}
