import Foundation
import Testing

/// scripts/package-deb.sh: the package's control data, files and generated documents. Installing
/// it is DebInstallTests; lintian and reproducibility are DebPackageLintianTests.
@Suite(.serialized) struct DebPackageTests {
    static let root = SystemEnvironment.packageRoot

    /// Builds the package from `binary` (default: the test build of nfctap) into a fresh
    /// directory; returns its path. `environment` adds to the script's (SOURCE_DATE_EPOCH).
    static func buildPackage(binary: String = SystemEnvironment.cliPath, extra: [String] = ["--no-lintian"],
                             environment: [String: String] = [:]) throws -> (deb: String, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let r = try runProgram(root.appendingPathComponent("scripts/package-deb.sh").path,
                               ["--binary", binary, "--output", dir.path] + extra, environment: environment)
        guard r.status == 0 else { throw PackageError.failed("package-deb.sh: \(r.stderr)") }
        return (r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), dir)
    }

    enum PackageError: Error { case failed(String) }

    /// The package of the test build, built once per test process and shared by the suites that
    /// only read it (each `dpkg-deb --build` compresses the binary with xz: tens of seconds of CPU).
    /// Returns its path and a fresh directory of the caller's own (for extracted trees, repacks),
    /// which the caller removes. The shared package goes with the process.
    /// `twoBuildsAreByteIdentical` compares it with a build of its own.
    static func sharedPackage() throws -> (deb: String, dir: URL) {
        let deb = try shared.withLock { cached -> String in
            if let cached { return cached.deb }
            let built = try buildPackage()
            cached = built
            atexit { if let dir = DebPackageTests.shared.withLock({ $0?.dir }) { try? FileManager.default.removeItem(at: dir) } }
            return built.deb
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (deb, dir)
    }
    static let shared = SharedPackage()

    /// The shared package, behind a lock.
    final class SharedPackage: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (deb: String, dir: URL)?
        func withLock<T>(_ body: (inout (deb: String, dir: URL)?) throws -> T) rethrows -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }

    static let haveDpkgDeb = SystemEnvironment.tool("/usr/bin/dpkg-deb")

    static func dpkgDeb(_ args: [String]) throws -> String { try runProgram("/usr/bin/dpkg-deb", args).stdout }

    /// A gzip file's text.
    static func gunzip(_ path: String) throws -> String {
        try runProgram("/bin/gzip", ["-dc", path]).stdout
    }

    @Test(.enabled(if: haveDpkgDeb))
    func controlAndContents() throws {
        let (deb, dir) = try Self.sharedPackage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let version = try runCLI(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try runProgram("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("/nfctap_\(version)_\(arch).deb"))

        let info = try Self.dpkgDeb(["--info", deb])
        #expect(info.contains("Package: nfctap"))
        #expect(info.contains("Version: \(version)"))
        #expect(info.contains("Maintainer: nfctap maintainers <maintainers@nfctap.dev>"))
        #expect(!info.contains("@localhost"))
        #expect(info.contains("libpcsclite1") && info.contains("libc6"), "shared-library dependencies from dpkg-shlibdeps: \(info)")
        #expect(info.contains("libnfc6"), "its /etc/modprobe.d/blacklist-libnfc.conf replaces ours")
        #expect(info.contains("pcscd"))
        #expect(info.contains("systemd | systemd-standalone-sysusers | systemd-sysusers"), "postinst runs systemd-sysusers")
        for script in ["postinst", "prerm", "postrm", "md5sums"] { #expect(info.contains(script), "\(script) missing: \(info)") }
        // Description lines fit 80 columns (dpkg-deb --info indents them by one more space).
        let description = info.components(separatedBy: " Description: ").last ?? ""
        for line in description.split(separator: "\n") { #expect(line.count <= 81, "\(line)") }

        let contents = try Self.dpkgDeb(["--contents", deb])
        for path in ["./usr/bin/nfctap", "./usr/lib/udev/rules.d/60-nfctap.rules",
                     "./usr/lib/systemd/system/nfctap-kiosk.service", "./usr/lib/sysusers.d/nfctap.conf",
                     "./usr/share/man/man1/nfctap.1.gz", "./usr/share/man/man1/nfctap-scan.1.gz",
                     "./usr/share/man/man1/nfctap-doctor.1.gz", "./usr/share/man/man5/nfctap-kiosk.json.5.gz",
                     "./usr/share/bash-completion/completions/nfctap",
                     "./usr/share/zsh/vendor-completions/_nfctap", "./usr/share/fish/vendor_completions.d/nfctap.fish",
                     "./usr/share/doc/nfctap/copyright", "./usr/share/doc/nfctap/changelog.gz",
                     "./usr/share/doc/nfctap/README.md", "./usr/share/doc/nfctap/docs/architecture.md",
                     "./usr/share/doc/nfctap/examples/kiosk.json"] {
            #expect(contents.contains(" \(path)\n"), "\(path) missing")
        }
        // No blacklist of our own (libnfc6 has one), nothing in /etc, everything owned by root.
        #expect(!contents.contains("modprobe.d"))
        #expect(!contents.contains(" ./etc/"))
        for line in contents.split(separator: "\n") { #expect(line.contains(" root/root "), "\(line)") }

        let tree = dir.appendingPathComponent("tree")
        #expect(try runProgram("/usr/bin/dpkg-deb", ["-x", deb, tree.path]).status == 0)
        func text(_ path: String) throws -> String { try String(contentsOf: tree.appendingPathComponent(path), encoding: .utf8) }
        // The generated files: from the command definitions, so they know every subcommand.
        for path in ["usr/share/bash-completion/completions/nfctap", "usr/share/zsh/vendor-completions/_nfctap",
                     "usr/share/fish/vendor_completions.d/nfctap.fish"] {
            let script = try text(path)
            for sub in ["inventory", "kiosk", "doctor", "decode"] { #expect(script.contains(sub), "\(path) lacks \(sub)") }
        }
        #expect(!(try text("usr/share/bash-completion/completions/nfctap")).hasPrefix("#!"), "a sourced snippet has no #! line")
        let unit = try text("usr/lib/systemd/system/nfctap-kiosk.service")
        #expect(unit.contains("ExecStart=/usr/bin/nfctap kiosk --config /etc/nfctap/kiosk.json"))
        #expect(unit.contains("ConditionPathExists=/etc/nfctap/kiosk.json"))
        #expect(unit.contains("Documentation=man:nfctap-kiosk(1) man:nfctap-kiosk.json(5)"))
        #expect(!unit.contains("/usr/local"))
        #expect(try text("usr/lib/sysusers.d/nfctap.conf").contains("u nfctap - \"nfctap kiosk\" /nonexistent"))

        // The copyright file: DEP-5, a Copyright line per stanza, every component bundled in the binary.
        let copyright = try text("usr/share/doc/nfctap/copyright")
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"))
        let stanzas = copyright.components(separatedBy: "\n\n").filter { $0.hasPrefix("Files:") }
        #expect(stanzas.count >= 5)
        for stanza in stanzas { #expect(stanza.contains("\nCopyright: "), "\(stanza)") }
        for component in ["swift-corelibs-foundation", "swift-foundation-icu", "swift-argument-parser", "swift-log",
                          "Swift Runtime Library Exception", "License: Unicode-3.0", "UNICODE LICENSE V3"] {
            #expect(copyright.contains(component), "\(component)")
        }

        // The Debian changelog, made from CHANGELOG.md: its newest entry is this version.
        let changelog = try Self.gunzip(tree.appendingPathComponent("usr/share/doc/nfctap/changelog.gz").path)
        #expect(changelog.hasPrefix("nfctap (\(version)) unstable; urgency=medium\n\n  * "), "\(changelog.prefix(200))")
        #expect(changelog.contains("\n -- nfctap maintainers <maintainers@nfctap.dev>  "))
        #expect(changelog.contains("nfctap (0.1.0) unstable"))
        #expect(!changelog.contains("`"))
        for line in changelog.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }

        // md5sums covers every file, and the files match it.
        let control = dir.appendingPathComponent("control")
        #expect(try runProgram("/usr/bin/dpkg-deb", ["-e", deb, control.path]).status == 0)
        let sums = try String(contentsOf: control.appendingPathComponent("md5sums"), encoding: .utf8)
        let files = contents.split(separator: "\n").filter { $0.hasPrefix("-") }.count
        #expect(sums.split(separator: "\n").count == files)
        let check = try runProgram("/usr/bin/md5sum", ["--check", "--quiet", control.appendingPathComponent("md5sums").path],
                                   currentDirectory: tree)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        // Maintainer scripts: udev and systemd only where they run; the kiosk through deb-systemd-invoke.
        let script = { (name: String) in try String(contentsOf: control.appendingPathComponent(name), encoding: .utf8) }
        for name in ["postinst", "postrm"] {
            #expect(try script(name).contains("[ -d /run/systemd/system ]"), "\(name)")
            #expect(try script(name).contains("[ -S /run/udev/control ]"), "\(name)")
        }
        #expect(try script("postinst").contains("systemd-sysusers nfctap.conf"))
        #expect(!(try script("postinst")).contains("adduser"), "one way to make the user")
        #expect(try script("postinst").contains("deb-systemd-invoke try-restart nfctap-kiosk.service"))
        #expect(try script("prerm").contains("deb-systemd-invoke stop nfctap-kiosk.service"))
        for name in ["postinst", "prerm", "postrm"] {
            #expect(!(try script(name)).contains("systemctl stop"), "\(name): deb-systemd-invoke, not systemctl")
        }
    }

    /// The man pages: every section a reader looks for, no markdown left, nothing of the source tree.
    @Test(.enabled(if: haveDpkgDeb))
    func manPages() throws {
        let (deb, dir) = try Self.sharedPackage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tree = dir.appendingPathComponent("tree")
        #expect(try runProgram("/usr/bin/dpkg-deb", ["-x", deb, tree.path]).status == 0)
        let man1 = tree.appendingPathComponent("usr/share/man/man1")
        let pages = try FileManager.default.contentsOfDirectory(atPath: man1.path).sorted()
        #expect(pages.count >= 15, "\(pages)")
        #expect(!pages.contains("nfctap-help.1.gz"))
        for page in pages {
            let roff = try Self.gunzip(man1.appendingPathComponent(page).path)
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "FILES", "ENVIRONMENT",
                            "EXAMPLES", "SEE ALSO"] {
                #expect(roff.contains("\n.SH \(section)\n"), "\(page) has no \(section)")
            }
            #expect(!roff.contains("`"), "\(page): markdown quotes")
            #expect(!roff.contains("README \""), "\(page): a README section name instead of the installed file")
            #expect(!roff.contains("Examples/"), "\(page): a path of the source tree")
            // Rendered: groff has nothing to say (lintian runs the same check).
            let rendered = try runProgram("/bin/sh", ["-c", "gzip -dc '\(man1.path)/\(page)' | LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z - >/dev/null"])
            #expect(rendered.stderr.isEmpty, "\(page): \(rendered.stderr)")
        }
        let kiosk = try Self.gunzip(man1.appendingPathComponent("nfctap-kiosk.1.gz").path)
        #expect(kiosk.contains("/usr/share/doc/nfctap/examples/kiosk.json"))
        #expect(kiosk.contains("\\fBnfctap-kiosk.json\\fR(5)"))
        // EXIT STATUS comes from the help text, one entry per code.
        let scan = try Self.gunzip(man1.appendingPathComponent("nfctap-scan.1.gz").path)
        let exitStatus = scan.components(separatedBy: ".SH EXIT STATUS\n").last?.components(separatedBy: ".SH ").first ?? ""
        for code in ["0", "1", "2", "3", "130"] { #expect(exitStatus.contains(".TP\n.B \(code)\n"), "scan exit \(code): \(exitStatus)") }

        // nfctap-kiosk.json(5) documents every key the kiosk accepts.
        let five = try Self.gunzip(tree.appendingPathComponent("usr/share/man/man5/nfctap-kiosk.json.5.gz").path)
        #expect(five.contains("nfctap-kiosk.json \\- "))
        for key in try Self.kioskKeys() { #expect(five.contains(".TP\n\\fB\(key)\\fR\n"), "nfctap-kiosk.json(5) lacks \(key)") }
    }

    /// The kiosk's top-level keys, from the message it prints for an unknown one.
    static func kioskKeys() throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-keys-\(UUID().uuidString).json")
        try #"{"action": "json", "noSuchKey": 1}"#.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try runCLI(["kiosk", "--config", file.path], timeout: 20)
        guard let list = r.stderr.components(separatedBy: "(known: ").last?.components(separatedBy: ")").first else { return [] }
        let keys = list.components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(keys.contains("action") && keys.contains("publish"), "\(r.stderr)")
        return keys
    }
}
