import Foundation
import Testing

/// scripts/package-deb.sh: the package's control data and files, then a real `apt-get install` and
/// `apt-get remove` in a throwaway root (an overlay of / in a private mount namespace, so the
/// machine is left as found).
@Suite(.serialized) struct DebPackageTests {
    static let root = SystemEnvironment.packageRoot

    /// Builds the package from the test build of nfctap into a fresh directory; returns its path.
    static func buildPackage() throws -> (deb: String, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let r = try runProgram(root.appendingPathComponent("scripts/package-deb.sh").path,
                               ["--binary", SystemEnvironment.cliPath, "--output", dir.path])
        guard r.status == 0 else { throw PackageError.failed("package-deb.sh: \(r.stderr)") }
        return (r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), dir)
    }

    enum PackageError: Error { case failed(String) }

    static let haveDpkgDeb = FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb")

    @Test(.enabled(if: haveDpkgDeb))
    func controlAndContents() throws {
        let (deb, dir) = try Self.buildPackage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let version = try runCLI(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("/nfctap_\(version)_\(try runProgram("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)).deb"))

        let info = try runProgram("/usr/bin/dpkg-deb", ["--info", deb]).stdout
        #expect(info.contains("Package: nfctap"))
        #expect(info.contains("Version: \(version)"))
        #expect(info.contains("libpcsclite1"), "shared-library dependencies from dpkg-shlibdeps: \(info)")
        #expect(info.contains("pcscd"))
        for script in ["postinst", "prerm", "postrm"] { #expect(info.contains(script), "\(script) missing: \(info)") }

        let contents = try runProgram("/usr/bin/dpkg-deb", ["--contents", deb]).stdout
        for path in ["./usr/bin/nfctap", "./usr/lib/udev/rules.d/60-nfctap.rules", "./usr/lib/modprobe.d/nfctap-blacklist.conf",
                     "./usr/lib/systemd/system/nfctap-kiosk.service", "./usr/lib/sysusers.d/nfctap.conf",
                     "./usr/share/man/man1/nfctap.1.gz", "./usr/share/man/man1/nfctap-scan.1.gz",
                     "./usr/share/man/man1/nfctap-doctor.1.gz", "./usr/share/bash-completion/completions/nfctap",
                     "./usr/share/zsh/vendor-completions/_nfctap", "./usr/share/fish/vendor_completions.d/nfctap.fish",
                     "./usr/share/doc/nfctap/copyright"] {
            #expect(contents.contains(" \(path)\n"), "\(path) missing")
        }
        // Nothing in /etc: removing the package removes every file; all owned by root.
        #expect(!contents.contains(" ./etc/"))
        for line in contents.split(separator: "\n") { #expect(line.contains(" root/root "), "\(line)") }

        // The generated files: from the command definitions, so they know every subcommand.
        let tree = dir.appendingPathComponent("tree")
        #expect(try runProgram("/usr/bin/dpkg-deb", ["-x", deb, tree.path]).status == 0)
        func text(_ path: String) throws -> String { try String(contentsOf: tree.appendingPathComponent(path), encoding: .utf8) }
        for path in ["usr/share/bash-completion/completions/nfctap", "usr/share/zsh/vendor-completions/_nfctap",
                     "usr/share/fish/vendor_completions.d/nfctap.fish"] {
            let script = try text(path)
            for sub in ["inventory", "kiosk", "doctor", "decode"] { #expect(script.contains(sub), "\(path) lacks \(sub)") }
        }
        let man = try runProgram("/bin/sh", ["-c", "gzip -dc '\(tree.path)/usr/share/man/man1/nfctap-scan.1.gz'"]).stdout
        #expect(man.hasPrefix(".TH NFCTAP-SCAN 1"))
        #expect(man.contains("--timeout"))
        #expect(try text("usr/lib/systemd/system/nfctap-kiosk.service").contains("ExecStart=/usr/bin/nfctap kiosk"))
        #expect(try text("usr/lib/sysusers.d/nfctap.conf").contains("u nfctap "))
        // Maintainer scripts only touch udev and systemd where they run.
        let control = dir.appendingPathComponent("control")
        #expect(try runProgram("/usr/bin/dpkg-deb", ["-e", deb, control.path]).status == 0)
        for script in ["postinst", "postrm"] {
            let body = try String(contentsOf: control.appendingPathComponent(script), encoding: .utf8)
            #expect(body.contains("[ -d /run/systemd/system ]"), "\(script)")
            #expect(body.contains("[ -S /run/udev/control ]"), "\(script)")
        }
    }

    static let canMount = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    /// `apt-get install ./nfctap_*.deb`, `nfctap doctor`, `apt-get remove nfctap`, in a chroot on an
    /// overlay of / (its writes go to a tmpfs), with no systemd or udev running in it.
    @Test(.enabled(if: haveDpkgDeb && canMount))
    func installDoctorAndRemoveInAThrowawayRoot() throws {
        let (deb, dir) = try Self.buildPackage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let passwdBefore = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let script = """
            set -eu
            t=$(mktemp -d /tmp/nfctap-overlay.XXXXXX)
            mount -t tmpfs tmpfs "$t"
            mkdir "$t/upper" "$t/work" "$t/root"
            mount -t overlay overlay -o "lowerdir=/,upperdir=$t/upper,workdir=$t/work" "$t/root"
            r="$t/root"
            mount --rbind /proc "$r/proc"; mount --rbind /sys "$r/sys"; mount --rbind /dev "$r/dev"
            mount -t tmpfs tmpfs "$r/run"; mount -t tmpfs tmpfs "$r/tmp"
            cp "$1" "$r/tmp/"
            in_root() { chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LIBNFC_DEVICE= "$@"; }
            echo "== install"
            in_root apt-get install -y "/tmp/$(basename "$1")" >"$t/apt.log" 2>&1 || { cat "$t/apt.log"; exit 1; }
            echo "== doctor"
            in_root nfctap doctor || true
            echo "== user"
            in_root getent passwd nfctap || echo "no user"
            echo "== remove"
            in_root apt-get remove -y nfctap >"$t/apt.log" 2>&1 || { cat "$t/apt.log"; exit 1; }
            for f in /usr/bin/nfctap /usr/lib/udev/rules.d/60-nfctap.rules /usr/lib/modprobe.d/nfctap-blacklist.conf \\
                     /usr/lib/systemd/system/nfctap-kiosk.service /usr/lib/sysusers.d/nfctap.conf \\
                     /usr/share/man/man1/nfctap.1.gz /usr/share/bash-completion/completions/nfctap; do
                if [ -e "$r$f" ]; then echo "left: $f"; fi
            done
            echo "== end"
            """
        let r = try runProgram("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", "-c", script, "install-test", deb])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let doctor = r.stdout.components(separatedBy: "== doctor").last?.components(separatedBy: "== user").first ?? ""
        // The software checks pass right after the install (the daemons are not running in a chroot).
        for check in ["pcscd-installed", "ccid-driver", "udev-rules", "module-blacklist"] {
            #expect(doctor.contains("[ok  ] \(check):"), "\(check): \(doctor)")
        }
        #expect(doctor.contains("/usr/lib/udev/rules.d/60-nfctap.rules"))
        #expect(r.stdout.contains("nfctap:x:"), "systemd-sysusers made the user: \(r.stdout)")
        #expect(!r.stdout.contains("left: "), "files left after removal: \(r.stdout)")
        #expect(r.stdout.contains("== end"))
        // The machine itself did not change.
        #expect(try String(contentsOfFile: "/etc/passwd", encoding: .utf8) == passwdBefore)
        #expect(!FileManager.default.fileExists(atPath: "/usr/lib/sysusers.d/nfctap.conf"))
    }
}
