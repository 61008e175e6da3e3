import Foundation
import Testing

/// `nfctap doctor` against fake system trees (NFCTAP_SYSROOT): each diagnosable failure is produced
/// and the exact fix is checked. Permission cases run the CLI as `nobody` (root bypasses access(2)).
@Suite struct DoctorTests {
    /// A fake root with pcscd + the CCID driver installed and nothing else.
    final class FakeRoot {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-root-\(UUID().uuidString)")
            try write("/usr/sbin/pcscd", "")
            try write("/usr/lib/pcsc/drivers/ifd-ccid.bundle/Contents/Info.plist", "")
            try write("/proc/modules", "ext4 1 0 - Live 0x0\n")
            // What README's Install section puts in place.
            try write("/etc/udev/rules.d/60-nfctap.rules", try String(contentsOf: SystemEnvironment.packageRoot
                .appendingPathComponent("udev/60-nfctap.rules"), encoding: .utf8))
            try write("/etc/modprobe.d/nfctap-blacklist.conf", try String(contentsOf: SystemEnvironment.packageRoot
                .appendingPathComponent("udev/nfctap-blacklist.conf"), encoding: .utf8))
            // Readable by `nobody` for the permission tests.
            chmodTree(url.path)
        }
        deinit { try? FileManager.default.removeItem(at: url) }

        func write(_ path: String, _ text: String, mode: Int = 0o644) throws {
            let file = url.appendingPathComponent(String(path.dropFirst()))
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            chmod(file.path, mode_t(mode))
            chmodTree(url.path)
        }
        func remove(_ path: String) throws {
            try FileManager.default.removeItem(at: url.appendingPathComponent(String(path.dropFirst())))
        }
        /// A USB device in sysfs with its /dev/bus/usb node.
        func addUSBDevice(_ name: String, vendor: String, product: String, bus: Int, dev: Int, nodeMode: Int) throws {
            try write("/sys/bus/usb/devices/\(name)/idVendor", vendor + "\n")
            try write("/sys/bus/usb/devices/\(name)/idProduct", product + "\n")
            try write("/sys/bus/usb/devices/\(name)/busnum", "\(bus)\n")
            try write("/sys/bus/usb/devices/\(name)/devnum", "\(dev)\n")
            try write(String(format: "/dev/bus/usb/%03d/%03d", bus, dev), "", mode: nodeMode)
        }
        private func chmodTree(_ path: String) {
            // Directories traversable by everyone.
            let e = FileManager.default.enumerator(atPath: path)
            chmod(path, 0o755)
            while let p = e?.nextObject() as? String {
                var isDir: ObjCBool = false
                let full = path + "/" + p
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), isDir.boolValue { chmod(full, 0o755) }
            }
        }
    }

    func doctor(_ root: FakeRoot, asNobody: Bool = false, env: [String: String] = [:]) throws -> CLIResult {
        var environment = env
        environment["NFCTAP_SYSROOT"] = root.url.path
        environment["LIBNFC_DEVICE"] = env["LIBNFC_DEVICE"] ?? ""
        if asNobody {
            return try runCLIAs(user: 65534, group: 65534, ["doctor"], environment: environment)
        }
        return try runCLI(["doctor"], environment: environment)
    }

    @Test func cleanMachinePasses() throws {
        let root = try FakeRoot()
        let r = try doctor(root)
        for check in ["pcscd-installed", "ccid-driver", "udev-rules", "module-blacklist", "kernel-modules"] {
            #expect(r.stdout.contains("[ok  ] \(check):"), "\(check): \(r.stdout)")
        }
        // The rest depends on the daemons (pcscd, BlueZ): see DoctorRuntimeTests.
        if SystemEnvironment.isRunning("pcscd") { #expect(r.status == 0, "\(r.stdout)") }
    }

    @Test func missingPcscdAndDriverFail() throws {
        let root = try FakeRoot()
        try root.remove("/usr/sbin/pcscd")
        try root.remove("/usr/lib/pcsc/drivers/ifd-ccid.bundle")
        let r = try doctor(root)
        #expect(r.status == 1)
        #expect(r.stdout.contains("[FAIL] pcscd-installed"))
        #expect(r.stdout.contains("fix: apt-get install pcscd libccid"), "as root, no sudo: \(r.stdout)")
        #expect(r.stdout.contains("[FAIL] ccid-driver"))
    }

    @Test(.enabled(if: SystemEnvironment.isRealRoot, SystemEnvironment.needsRealRoot))
    func missingPcscdFixSaysSudoToAUser() throws {
        let root = try FakeRoot()
        try root.remove("/usr/sbin/pcscd")
        let user = try doctor(root, asNobody: true)
        #expect(user.stdout.contains("fix: sudo apt-get install pcscd libccid"), "\(user.stdout)")
    }

    @Test func missingUdevRulesWarnWithTheFix() throws {
        let root = try FakeRoot()
        try root.remove("/etc/udev/rules.d/60-nfctap.rules")
        let r = try doctor(root)
        #expect(r.stdout.contains("[warn] udev-rules: the reader access rules (60-nfctap.rules) are not installed"), "\(r.stdout)")
        #expect(r.stdout.contains("fix: install -m 644 udev/60-nfctap.rules /etc/udev/rules.d/ && udevadm control --reload && udevadm trigger"))
        // The Debian package's location counts; an unrelated file of that name does not.
        try root.write("/usr/lib/udev/rules.d/60-nfctap.rules", try String(contentsOf: SystemEnvironment.packageRoot
            .appendingPathComponent("udev/60-nfctap.rules"), encoding: .utf8))
        #expect(try doctor(root).stdout.contains("[ok  ] udev-rules: reader access rules installed (/usr/lib/udev/rules.d/60-nfctap.rules)"))
        try root.write("/etc/udev/rules.d/60-nfctap.rules", "# emptied\n")
        #expect(try doctor(root).stdout.contains("[warn] udev-rules: /etc/udev/rules.d/60-nfctap.rules holds no reader rule"))
    }

    @Test func missingOrPartialBlacklistWarns() throws {
        let root = try FakeRoot()
        try root.remove("/etc/modprobe.d/nfctap-blacklist.conf")
        let none = try doctor(root)
        #expect(none.stdout.contains("[warn] module-blacklist: not blacklisted: pn533_usb, pn533, nfc"), "\(none.stdout)")
        #expect(none.stdout.contains("fix: install -m 644 udev/nfctap-blacklist.conf /etc/modprobe.d/"))
        // Another file may do part of it (modprobe.d reads every *.conf); `install M /bin/false` counts.
        try root.write("/etc/modprobe.d/local.conf", "# mine\nblacklist pn533_usb\ninstall nfc /bin/false\n")
        #expect(try doctor(root).stdout.contains("[warn] module-blacklist: not blacklisted: pn533:"))
        try root.write("/usr/lib/modprobe.d/nfctap-blacklist.conf", "blacklist pn533\n")
        #expect(try doctor(root).stdout.contains("[ok  ] module-blacklist:"))
        // A file not ending in .conf is not read by modprobe, so not by doctor.
        try root.remove("/usr/lib/modprobe.d/nfctap-blacklist.conf")
        try root.write("/etc/modprobe.d/nfctap-blacklist.conf.disabled", "blacklist pn533\n")
        #expect(try doctor(root).stdout.contains("[warn] module-blacklist: not blacklisted: pn533:"))
    }

    /// Fixes point back ("above") at checks printed earlier: the install and kernel lines come
    /// before pcscd's and the readers'.
    @Test func checksComeInTheOrderTheFixesCite() throws {
        let root = try FakeRoot()
        let out = try doctor(root).stdout
        let order = ["pcscd-installed", "udev-rules", "module-blacklist", "kernel-modules", "pcscd-running"]
        let positions = order.map { out.range(of: "] \($0):")?.lowerBound }
        #expect(!positions.contains(nil), "\(out)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(out)")
    }

    @Test func loadedKernelModulesWarn() throws {
        let root = try FakeRoot()
        try root.write("/proc/modules", "pn533_usb 20480 0 - Live 0x0\npn533 45056 1 pn533_usb, Live 0x0\nnfc 135168 1 pn533, Live 0x0\n")
        let r = try doctor(root)
        #expect(r.status == 0)
        #expect(r.stdout.contains("[warn] kernel-modules: kernel NFC modules loaded (pn533_usb, pn533, nfc)"))
        #expect(r.stdout.contains("fix: modprobe -r pn533_usb pn533 nfc"))
    }

    @Test func kernelDriverHoldingAReaderFails() throws {
        let root = try FakeRoot()
        try root.write("/proc/modules", "pn533_usb 20480 0 - Live 0x0\n")
        try root.write("/sys/bus/usb/drivers/pn533_usb/1-1:1.0/uevent", "")
        let r = try doctor(root)
        #expect(r.status == 1)
        #expect(r.stdout.contains("[FAIL] kernel-modules: the kernel's pn533_usb driver holds a reader (1-1:1.0)"))
    }

    @Test func usbReaderPermissions() throws {
        let root = try FakeRoot()
        try root.addUSBDevice("1-1", vendor: "072f", product: "2200", bus: 1, dev: 7, nodeMode: 0o600)
        let asRoot = try doctor(root)
        #expect(asRoot.stdout.contains("[ok  ] usb-permissions: ACS ACR122U at /dev/bus/usb/001/007 is accessible"))
        // An unknown USB device is not reported as a reader.
        let other = try FakeRoot()
        try other.addUSBDevice("1-2", vendor: "1d6b", product: "0002", bus: 1, dev: 1, nodeMode: 0o600)
        #expect(try doctor(other).stdout.contains("[info] usb-readers: no known USB NFC reader"))
    }

    @Test(.enabled(if: SystemEnvironment.isRealRoot, SystemEnvironment.needsRealRoot))
    func usbReaderPermissionsOfAUser() throws {
        let root = try FakeRoot()
        try root.addUSBDevice("1-1", vendor: "072f", product: "2200", bus: 1, dev: 7, nodeMode: 0o600)
        let asNobody = try doctor(root, asNobody: true)
        #expect(asNobody.stdout.contains("[warn] usb-permissions: ACS ACR122U at /dev/bus/usb/001/007 is not accessible"),
                "\(asNobody.stdout)\(asNobody.stderr)")
        #expect(asNobody.stdout.contains("udev/60-nfctap.rules"))
    }

    @Test func libnfcDeviceMissingOrInaccessible() throws {
        let root = try FakeRoot()
        try root.write("/etc/nfc/libnfc.conf", "# comment\ndevice.name = \"board\"\ndevice.connstring = \"pn532_uart:/dev/ttyUSB9\"\n")
        let missing = try doctor(root)
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("[FAIL] libnfc-config: libnfc device pn532_uart:/dev/ttyUSB9 (from /etc/nfc/libnfc.conf): /dev/ttyUSB9 does not exist"))
        try root.write("/dev/ttyUSB9", "", mode: 0o600)
        #expect(try doctor(root).status == 0)
        // LIBNFC_DEVICE is checked too.
        let env = try doctor(root, env: ["LIBNFC_DEVICE": "pn532_uart:/dev/ttyACM3"])
        #expect(env.stdout.contains("(from LIBNFC_DEVICE): /dev/ttyACM3 does not exist"))
    }

    @Test(.enabled(if: SystemEnvironment.isRealRoot, SystemEnvironment.needsRealRoot))
    func libnfcDeviceInaccessibleToAUser() throws {
        let root = try FakeRoot()
        try root.write("/etc/nfc/libnfc.conf", "device.connstring = \"pn532_uart:/dev/ttyUSB9\"\n")
        try root.write("/dev/ttyUSB9", "", mode: 0o600)
        let nobody = try doctor(root, asNobody: true)
        #expect(nobody.status == 1)
        #expect(nobody.stdout.contains("is not accessible to this user"))
        #expect(nobody.stdout.contains("fix: sudo usermod -aG dialout $USER"), "not root: sudo")
    }
}

/// Runs the CLI as another user through setpriv(1), so permission checks see a non-root caller.
func runCLIAs(user: Int, group: Int, _ args: [String], environment: [String: String]) throws -> CLIResult {
    // setpriv execs the CLI; runCLI's machinery is reused by pointing NFCTAP_CLI-style at setpriv.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = ["--reuid=\(user)", "--regid=\(group)", "--clear-groups", SystemEnvironment.cliPath] + args
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                     stderr: String(decoding: e, as: UTF8.self))
}
