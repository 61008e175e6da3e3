#!/usr/bin/env bash
# Builds the Debian package: dist/nfctap_<version>_<arch>.deb, with Debian's own tools only
# (dpkg-deb, dpkg-shlibdeps). Install it with `apt install ./dist/nfctap_*.deb` (as root).
#
#   scripts/package-deb.sh [--binary PATH] [--output DIR]
#
# Without --binary it builds nfctap in release mode with the Swift runtime linked in
# (--static-swift-stdlib, in .build-deb/), so the package needs no Swift on the target machine;
# --binary packages an nfctap already built (the tests pass their debug build).
#
# The package holds:
#   /usr/bin/nfctap
#   /usr/lib/udev/rules.d/60-nfctap.rules           (udev/: reader access for plugdev and the seat)
#   /usr/lib/modprobe.d/nfctap-blacklist.conf       (udev/: keeps the kernel's NFC stack off readers)
#   /usr/lib/systemd/system/nfctap-kiosk.service    (systemd/, ExecStart=/usr/bin/nfctap)
#   /usr/lib/sysusers.d/nfctap.conf                 (the kiosk's system user, groups plugdev, dialout)
#   /usr/share/man/man1/nfctap*.1.gz                (generated from the command definitions)
#   bash, zsh and fish completions                  (generated: nfctap --generate-completion-script)
#   /usr/share/doc/nfctap/{copyright,changelog.gz,examples/kiosk.json}
# Nothing goes to /etc, so removing the package removes every file it brought. The maintainer
# scripts reload udev, create the user and reload systemd only where those are running (not in a
# chroot or a container without them). The nfctap user stays after removal, as Debian does with
# system users (files it wrote may still exist).
#
# Man pages: swift-argument-parser's `generate-manual` plugin needs a SwiftPM build of its own
# inside the package's build directory (whose lock `swift test` holds, so the test suite could not
# run it); it renders the same data `nfctap --experimental-dump-help` prints, which
# scripts/lib/manpages.py turns into man(7) pages here.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

binary="" output="dist"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        --output) output="${2:?--output needs a directory}"; shift 2 ;;
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) log "package-deb: unknown argument $1 (see --help)"; exit 64 ;;
    esac
done

for tool in dpkg-deb dpkg-shlibdeps python3 gzip strip; do
    command -v "$tool" >/dev/null 2>&1 || ensure_packages dpkg-dev python3 gzip binutils
done

if [ -z "$binary" ]; then
    ensure_packages "${NFCTAP_RUNTIME_PACKAGES[@]}"
    ensure_swift
    log "building nfctap (release, Swift runtime linked in)"
    swift build -c release --product nfctap --static-swift-stdlib --scratch-path .build-deb
    binary="$(swift build -c release --static-swift-stdlib --scratch-path .build-deb --show-bin-path)/nfctap"
fi
[ -x "$binary" ] || { log "package-deb: $binary is not an executable"; exit 1; }

version="$("$binary" --version)"
arch="$(dpkg --print-architecture)"
work="$(mktemp -d /tmp/nfctap-deb.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/root"

install -D -m 755 "$binary" "$root/usr/bin/nfctap"
# Debian ships binaries stripped (the static Swift runtime's symbols alone are tens of MB).
strip --strip-unneeded "$root/usr/bin/nfctap"
install -D -m 644 udev/60-nfctap.rules "$root/usr/lib/udev/rules.d/60-nfctap.rules"
install -D -m 644 udev/nfctap-blacklist.conf "$root/usr/lib/modprobe.d/nfctap-blacklist.conf"
install -d "$root/usr/lib/systemd/system"
sed 's|/usr/local/bin/nfctap|/usr/bin/nfctap|g' systemd/nfctap-kiosk.service >"$root/usr/lib/systemd/system/nfctap-kiosk.service"
chmod 644 "$root/usr/lib/systemd/system/nfctap-kiosk.service"
install -D -m 644 systemd/nfctap-agent.service "$root/usr/lib/systemd/user/nfctap-agent.service"
install -D -m 644 desktop/nfctap-agent.desktop "$root/usr/share/applications/nfctap-agent.desktop"
install -d "$root/usr/lib/sysusers.d"
cat >"$root/usr/lib/sysusers.d/nfctap.conf" <<'EOF'
# The user nfctap-kiosk.service runs as: reader access through plugdev, serial readers through dialout.
u nfctap - "nfctap kiosk" /nonexistent
m nfctap plugdev
m nfctap dialout
EOF

# Completions and man pages, generated from the command definitions of the binary packaged.
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/man/man1"
"$binary" --generate-completion-script bash >"$root/usr/share/bash-completion/completions/nfctap"
"$binary" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_nfctap"
"$binary" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/nfctap.fish"
"$binary" --experimental-dump-help >"$work/help.json"
python3 scripts/lib/manpages.py "$work/help.json" "$root/usr/share/man/man1" "$version"
gzip -9n "$root"/usr/share/man/man1/*.1

install -d "$root/usr/share/doc/nfctap/examples"
install -m 644 Examples/kiosk.json "$root/usr/share/doc/nfctap/examples/kiosk.json"
gzip -9nc CHANGELOG.md >"$root/usr/share/doc/nfctap/changelog.gz"
cat >"$root/usr/share/doc/nfctap/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: nfctap

Files: *
License: Apache-2.0
 On Debian systems the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
EOF
find "$root" -type d -exec chmod 755 {} +

# Shared-library dependencies as Debian computes them (dpkg-shlibdeps wants a debian/control).
mkdir -p "$work/src/debian"
printf 'Source: nfctap\n\nPackage: nfctap\nArchitecture: any\n' >"$work/src/debian/control"
shlibs="$(cd "$work/src" && dpkg-shlibdeps -O --ignore-missing-info -e"$root/usr/bin/nfctap" 2>/dev/null \
          | sed -n 's/^shlibs:Depends=//p')"
depends="${shlibs:+$shlibs, }pcscd"
size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"

install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<EOF
Package: nfctap
Version: $version
Architecture: $arch
Maintainer: nfctap developers <nfctap@localhost>
Installed-Size: $size
Depends: $depends
Recommends: libccid
Suggests: libnfc-bin, bluez
Section: utils
Priority: optional
Homepage: https://github.com/nfctap/nfctap
Description: NFC tags and readers on Linux with Apple's Core NFC model
 Read, write and lock NFC Forum Type 2 and Type 4 tags through PC/SC readers (pcscd)
 or PN53x/PN532 readers (libnfc); pair Zebra printers by tapping them; run unattended
 as a kiosk service. Includes udev rules for reader access, a blacklist keeping the
 kernel's NFC modules off the readers, the kiosk systemd unit, man pages and shell
 completions.
EOF

# Maintainer scripts: each step only where its daemon runs.
cat >"$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    if command -v systemd-sysusers >/dev/null 2>&1; then
        systemd-sysusers nfctap.conf
    elif ! getent passwd nfctap >/dev/null; then
        adduser --system --group --no-create-home --home /nonexistent nfctap >/dev/null
        for g in plugdev dialout; do getent group "$g" >/dev/null && adduser nfctap "$g" >/dev/null || true; done
    fi
    if [ -S /run/udev/control ] && command -v udevadm >/dev/null 2>&1; then
        udevadm control --reload || true
        udevadm trigger --subsystem-match=usb --action=change || true
    fi
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload || true
    fi
fi
exit 0
EOF
cat >"$root/DEBIAN/prerm" <<'EOF'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl stop nfctap-kiosk.service 2>/dev/null || true
fi
exit 0
EOF
cat >"$root/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e
case "$1" in
    remove|purge)
        if [ -S /run/udev/control ] && command -v udevadm >/dev/null 2>&1; then
            udevadm control --reload || true
        fi
        if [ -d /run/systemd/system ]; then
            systemctl daemon-reload || true
        fi
        ;;
esac
exit 0
EOF
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"

mkdir -p "$output"
deb="$output/nfctap_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
log "built $deb"
printf '%s\n' "$deb"
