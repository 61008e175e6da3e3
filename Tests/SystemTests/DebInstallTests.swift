import Foundation
import Testing

/// The package installed, used, upgraded and purged in a throwaway root: a chroot on an overlay
/// of / (its writes go to a tmpfs) in a private mount namespace, so the machine is left as found.
///
/// No systemd runs in the chroot. The maintainer scripts' systemd steps are tested with
/// `deb-systemd-invoke` and `systemctl` replaced by stubs that log their arguments (in the overlay,
/// with /run/systemd/system present so the scripts take their systemd branch): the test checks
/// what the scripts ask of systemd (a running kiosk restarted after an upgrade, stopped on
/// removal), not systemd doing it.
@Suite(.serialized) struct DebInstallTests {
    static let canMount = SystemEnvironment.isRealRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && SystemEnvironment.tool("/usr/bin/man")

    /// Paths the man pages cite that no package creates: the admin's, the kiosk's at run time, devices.
    static let createdLater = [
        "/etc/nfctap",         // the configuration the admin writes (nfctap-kiosk.json(5))
        "/var/lib/nfctap",     // the kiosk unit's StateDirectory, made by systemd when it starts
        "/dev",                // reader devices
    ]

    /// Paths the man pages cite as used "when installed", from packages nfctap does not depend on:
    /// nfctap works without them (`readers --explain` explains the ATR from PC/SC Part 3 alone), so
    /// the installed system may lack them. Path → the package that brings it.
    static let optionalCited = [
        "/usr/share/pcsc/smartcard_list.txt": "pcsc-tools",
    ]

    static func isCreatedLater(_ path: String) -> Bool {
        createdLater.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    @Test(.enabled(if: DebPackageTests.haveDpkgDeb && canMount, SystemEnvironment.needsRealRoot))
    func installReadManUpgradeAndPurgeInAThrowawayRoot() throws {
        let (deb, dir) = try DebPackageTests.sharedPackage()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The upgrade: the same package with a higher version (repacked with gzip -1: its compression
        // is not what this test checks, and xz took tens of seconds of CPU).
        let upgrade = dir.appendingPathComponent("upgrade.deb").path
        let repack = try runProgram("/bin/sh", ["-c", """
            set -e; d=$(mktemp -d); dpkg-deb -R "$1" "$d/p"
            sed -i 's/^Version: \\(.*\\)$/Version: \\11/' "$d/p/DEBIAN/control"
            dpkg-deb --root-owner-group -Zgzip -z1 -b "$d/p" "$2" >/dev/null; rm -rf "$d"
            """, "repack", deb, upgrade])
        #expect(repack.status == 0, "\(repack.stderr)")
        let passwdBefore = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let script = """
            set -eu
            t=$(mktemp -d /tmp/nfctap-overlay.XXXXXX)
            echo "overlay: $t"
            mount -t tmpfs tmpfs "$t"
            mkdir "$t/upper" "$t/work" "$t/root"
            mount -t overlay overlay -o "lowerdir=/,upperdir=$t/upper,workdir=$t/work" "$t/root"
            r="$t/root"
            mount --rbind /proc "$r/proc"; mount --rbind /sys "$r/sys"; mount --rbind /dev "$r/dev"
            mount -t tmpfs tmpfs "$r/run"; mount -t tmpfs tmpfs "$r/tmp"
            cp "$1" "$r/tmp/nfctap.deb"; cp "$2" "$r/tmp/upgrade.deb"
            # The checkout's scripts, copied into the root (its writes go to the overlay's tmpfs):
            # the checkout itself may sit anywhere, under /tmp too, which the root's own tmpfs hides.
            src=/opt/nfctap-checkout
            mkdir -p "$r$src"; cp -R "$3/scripts" "$r$src/scripts"; chmod -R a+rX "$r$src"
            in_root() { chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LIBNFC_DEVICE= "$@"; }
            # Stubs in place of the overlay's deb-systemd-invoke and systemctl (dpkg gives maintainer
            # scripts its own PATH): what the maintainer scripts ask of systemd, logged.
            mkdir -p "$r/run/systemd/system"
            for tool in deb-systemd-invoke systemctl; do
                rm -f "$r/usr/bin/$tool"
                printf '#!/bin/sh\\necho "%s $*" >>/tmp/systemd.log\\n' "$tool" >"$r/usr/bin/$tool"
                chmod 755 "$r/usr/bin/$tool"
            done
            echo "== install"
            in_root apt-get install -y /tmp/nfctap.deb >"$t/apt.log" 2>&1 || { cat "$t/apt.log"; exit 1; }
            in_root sh -c 'cat /tmp/systemd.log; : >/tmp/systemd.log'
            echo "== doctor"
            in_root nfctap doctor || true
            echo "== user"
            in_root getent passwd nfctap || echo "no user"
            echo "== man"
            for page in $(cd "$r/usr/share/man" && ls man1/nfctap*.1.gz man5/nfctap*.5.gz); do
                name=$(basename "$page" .gz); section=${name##*.}; name=${name%.*}
                echo "-- $name($section)"
                in_root env MANWIDTH=2000 LC_ALL=C.UTF-8 man -P cat "$section" "$name" 2>&1 || echo "man failed: $name"
            done
            echo "== cited"
            # Every absolute path a page cites, as the installed system has it.
            for page in $(cd "$r/usr/share/man" && ls man1/nfctap*.1.gz man5/nfctap*.5.gz); do
                name=$(basename "$page" .gz); section=${name##*.}; name=${name%.*}
                in_root env MANWIDTH=2000 LC_ALL=C.UTF-8 man -P cat "$section" "$name" 2>/dev/null
            done | grep -oE '(^|[ ("=:])/(usr|etc|var|run|lib|opt|dev|home)/[A-Za-z0-9_./+-]*' \\
                 | sed -E 's/^[ ("=:]//; s/[.,)]+$//' | sort -u | while read -r p; do
                if [ -e "$r$p" ]; then echo "exists: $p"; else echo "missing: $p"; fi
            done
            echo "== normal user"
            in_root useradd --create-home --shell /bin/bash nfctaptest
            printf 'nfctaptest ALL=(ALL) NOPASSWD: ALL\\n' >"$r/etc/sudoers.d/nfctaptest"
            chmod 440 "$r/etc/sudoers.d/nfctaptest"
            # A login PATH without sbin, as Debian gives users: scripts/lib.sh adds it.
            in_root su - nfctaptest -c "env PATH=/usr/local/bin:/usr/bin:/bin bash -c '. $src/scripts/lib.sh; command -v pcscd; process_running bash && echo running-seen; process_running no-such-program || echo absent-seen; sudo -n true && echo sudo-ok'" 2>&1
            in_root su - nfctaptest -c "cd /tmp && env PATH=/usr/local/bin:/usr/bin:/bin NFCTAP_BIN=/usr/bin/nfctap NFCTAP_START_PCSCD=0 $src/scripts/run.sh; echo run-status=\\$?" 2>&1 | tail -n 5
            echo "== upgrade"
            in_root apt-get install -y /tmp/upgrade.deb >"$t/apt.log" 2>&1 || { cat "$t/apt.log"; exit 1; }
            in_root sh -c 'cat /tmp/systemd.log; : >/tmp/systemd.log'
            echo "== remove"
            in_root apt-get remove -y nfctap >"$t/apt.log" 2>&1 || { cat "$t/apt.log"; exit 1; }
            in_root sh -c 'cat /tmp/systemd.log; : >/tmp/systemd.log'
            for f in /usr/bin/nfctap /usr/lib/udev/rules.d/60-nfctap.rules /usr/lib/systemd/system/nfctap-kiosk.service \\
                     /usr/lib/sysusers.d/nfctap.conf /usr/share/man/man1/nfctap.1.gz /usr/share/bash-completion/completions/nfctap \\
                     /usr/share/doc/nfctap/README.md; do
                if [ -e "$r$f" ]; then echo "left: $f"; fi
            done
            echo "== purge"
            in_root apt-get purge -y nfctap >"$t/apt.log" 2>&1 || { cat "$t/apt.log"; exit 1; }
            in_root dpkg-query -W -f='${Status}\\n' nfctap 2>&1 || true
            find "$r/etc/systemd" "$r/var/lib/systemd" -name '*nfctap*' 2>/dev/null | sed "s|^$r|left: |"
            echo "== end"
            """
        let r = try runProgram("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", "-c", script, "install-test",
                                                    deb, upgrade, SystemEnvironment.packageRoot.path])
        // The mount point stays in the machine's /tmp (empty: the tmpfs went with the namespace).
        if let overlay = r.stdout.components(separatedBy: "overlay: ").dropFirst().first?.split(separator: "\n").first {
            try? FileManager.default.removeItem(atPath: String(overlay))
        }
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        func part(_ name: String) -> String {
            r.stdout.components(separatedBy: "== \(name)\n").dropFirst().first?.components(separatedBy: "\n== ").first ?? ""
        }
        // First install: systemd reloaded, the kiosk neither started nor restarted.
        #expect(part("install").contains("systemctl --system daemon-reload"), "\(part("install"))")
        #expect(!part("install").contains("deb-systemd-invoke"), "\(part("install"))")
        // The software checks pass right after the install (the daemons are not running in a chroot).
        for check in ["pcscd-installed", "ccid-driver", "udev-rules", "module-blacklist"] {
            #expect(part("doctor").contains("[ok  ] \(check):"), "\(check): \(part("doctor"))")
        }
        #expect(part("doctor").contains("/usr/lib/udev/rules.d/60-nfctap.rules"))
        #expect(part("user").contains("nfctap:x:") && part("user").contains(":nfctap kiosk:/nonexistent:"),
                "systemd-sysusers made the user: \(part("user"))")
        // man finds every page and renders it.
        let man = part("man")
        #expect(!man.contains("man failed"), "\(man)")
        #expect(!man.contains("No manual entry"), "\(man)")
        #expect(man.contains("-- nfctap-kiosk.json(5)") && man.contains("duplicateWindowSeconds"))
        #expect(man.components(separatedBy: "\nEXIT STATUS\n").count >= 16, "every command page has EXIT STATUS")
        // Every path cited exists, or is one the admin or the kiosk creates.
        let cited = part("cited").split(separator: "\n").map(String.init)
        #expect(cited.contains("exists: /usr/share/doc/nfctap/README.md"), "\(cited)")
        #expect(cited.contains("exists: /usr/share/doc/nfctap/examples/kiosk.json"), "\(cited)")
        #expect(cited.contains("exists: /etc/modprobe.d/blacklist-libnfc.conf"), "libnfc6's blacklist: \(cited)")
        for line in cited where line.hasPrefix("missing: ") {
            let path = String(line.dropFirst("missing: ".count))
            #expect(Self.isCreatedLater(path) || Self.optionalCited[path] != nil,
                    "a man page cites \(path), which the installed system lacks")
        }
        // A normal user with sudo: sbin tools found, processes seen without procps, run.sh works.
        let user = part("normal user")
        #expect(user.contains("/usr/sbin/pcscd"), "\(user)")
        #expect(user.contains("running-seen") && user.contains("absent-seen"), "\(user)")
        #expect(user.contains("sudo-ok"), "\(user)")
        #expect(user.contains("run-status=0"), "\(user)")
        // Upgrade: the running kiosk restarted on the new binary (try-restart: only if it runs).
        #expect(part("upgrade").contains("deb-systemd-invoke try-restart nfctap-kiosk.service"), "\(part("upgrade"))")
        // Remove: stopped; every file gone; purge leaves no trace in systemd's state.
        #expect(part("remove").contains("deb-systemd-invoke stop nfctap-kiosk.service"), "\(part("remove"))")
        #expect(!r.stdout.contains("left: "), "left after removal: \(r.stdout)")
        #expect(r.stdout.contains("== end"))
        // The machine itself did not change.
        #expect(try String(contentsOfFile: "/etc/passwd", encoding: .utf8) == passwdBefore)
        #expect(!FileManager.default.fileExists(atPath: "/usr/lib/sysusers.d/nfctap.conf"))
    }
}
