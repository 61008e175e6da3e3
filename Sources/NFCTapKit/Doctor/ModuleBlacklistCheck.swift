/// The modprobe.d blacklist that keeps the kernel's NFC stack (`nfc`, `pn533`, `pn533_usb`) off
/// PN533-based readers at boot and at plug-in (udev/nfctap-blacklist.conf).
package struct ModuleBlacklistCheck {
    package init() {}

    /// modprobe.d(5) directories, in its order of precedence.
    package static let directories = ["/etc/modprobe.d", "/run/modprobe.d", "/usr/local/lib/modprobe.d",
                              "/usr/lib/modprobe.d", "/lib/modprobe.d"]

    /// Modules named by `blacklist M` or disabled by `install M /bin/false` (or /bin/true).
    package static func blacklisted(inConfig text: String) -> Set<String> {
        var names: Set<String> = []
        for raw in text.split(separator: "\n") {
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first, !first.hasPrefix("#"), words.count >= 2 else { continue }
            if first == "blacklist" { names.insert(words[1]) }
            if first == "install", words.count >= 3, ["/bin/false", "/bin/true", "/usr/bin/false", "/usr/bin/true"].contains(words[2]) {
                names.insert(words[1])
            }
        }
        return names
    }

    package func run(_ root: SystemRoot) -> DoctorFinding {
        var names: Set<String> = []
        for dir in Self.directories {
            for file in root.list(dir) where file.hasSuffix(".conf") {
                names.formUnion(Self.blacklisted(inConfig: root.read("\(dir)/\(file)") ?? ""))
            }
        }
        let missing = KernelModuleCheck.modules.filter { !names.contains($0) }
        if missing.isEmpty {
            return DoctorFinding(check: "module-blacklist", status: .ok,
                                 summary: "the kernel NFC modules are blacklisted (\(KernelModuleCheck.modules.joined(separator: ", ")))", fix: nil)
        }
        return DoctorFinding(check: "module-blacklist", status: .warning,
                             summary: "not blacklisted: \(missing.joined(separator: ", ")): the kernel will take an ACR122U, SCL3711 or PN533 from pcscd when one is plugged in",
                             fix: DoctorAdvice.asRoot("install -m 644 udev/nfctap-blacklist.conf /etc/modprobe.d/") + " " + DoctorAdvice.fromSource)
    }
}
