#!/usr/bin/env bash
# Builds the Debian package: dist/nfctap_<version>_<arch>.deb, with Debian's own tools only
# (dpkg-deb, dpkg-shlibdeps), then checks it with `lintian --pedantic` (no error or warning may
# remain). Install it with `apt install ./dist/nfctap_*.deb` (as root).
#
#   scripts/package-deb.sh [--binary PATH] [--output DIR] [--lintian | --no-lintian]
#
# Without --binary it builds nfctap as scripts/lib/release-build.sh defines the release build
# (the binary scripts/bench.sh measures: Swift runtime linked in, hardened, no unused library) and
# checks the libraries it links against packaging/release-libraries.txt. --binary packages an
# nfctap already built (the tests pass their debug build); lintian then runs only with --lintian.
#
# The version is CHANGELOG.md's (scripts/lib/changelog.py), and the binary must print the same.
# The package is reproducible: file times are SOURCE_DATE_EPOCH (default: the last commit's
# time), owners root, the archive sorted, so two builds of one binary are byte-identical.
#
# The package holds:
#   /usr/bin/nfctap
#   /usr/lib/udev/rules.d/60-nfctap.rules           (udev/: reader access for plugdev and the seat)
#   /usr/lib/systemd/system/nfctap-kiosk.service    (systemd/, ExecStart=/usr/bin/nfctap)
#   /usr/lib/sysusers.d/nfctap.conf                 (the kiosk's system user, groups plugdev, dialout)
#   /usr/share/man/man1/nfctap*.1.gz, man5/nfctap-kiosk.json.5.gz  (scripts/lib/manpages.py)
#   bash, zsh and fish completions                  (generated: nfctap --generate-completion-script)
#   /usr/share/doc/nfctap/{README.md,docs/,examples/kiosk.json,copyright,changelog.gz}
# No modprobe blacklist: libnfc6, a dependency, ships /etc/modprobe.d/blacklist-libnfc.conf with
# the same three modules (the build fails if libnfc6 ever stops being a dependency).
# Nothing goes to /etc, so removing the package removes every file it brought. The maintainer
# scripts (packaging/deb/) make the user with systemd-sysusers, reload udev and systemd where they
# run, stop the kiosk on removal and restart a running kiosk after an upgrade (deb-systemd-invoke).
# The nfctap user stays after removal, as Debian does with system users.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
. scripts/lib/release-build.sh

# The package's maintainer, in one place (control and changelog). nfctap.dev is the project's
# contact domain; change it here when the package is maintained elsewhere.
NFCTAP_MAINTAINER="nfctap maintainers <maintainers@nfctap.dev>"

binary="" output="dist" lintian=""
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        --output) output="${2:?--output needs a directory}"; shift 2 ;;
        --lintian) lintian=1; shift ;;
        --no-lintian) lintian=0; shift ;;
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) log "package-deb: unknown argument $1 (see --help)"; exit 64 ;;
    esac
done

for tool in dpkg-deb dpkg-shlibdeps python3 gzip strip readelf; do
    command -v "$tool" >/dev/null 2>&1 || ensure_packages dpkg-dev python3 gzip binutils
done

if [ -z "$binary" ]; then
    ensure_packages "${NFCTAP_RUNTIME_PACKAGES[@]}"
    ensure_swift
    log "building nfctap (release build: scripts/lib/release-build.sh)"
    release_build nfctap
    binary="$(release_bin_dir)/nfctap"
    check_linked_libraries "$binary"
    : "${lintian:=1}"
fi
[ -x "$binary" ] || { log "package-deb: $binary is not an executable"; exit 1; }

version="$(python3 scripts/lib/changelog.py version)"
binary_version="$("$binary" --version)"
if [ "$binary_version" != "$version" ]; then
    log "package-deb: $binary prints version $binary_version, CHANGELOG.md says $version (rebuild it)"
    exit 1
fi
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH="$(git log -1 --format=%ct 2>/dev/null || stat -c %Y CHANGELOG.md)"
fi
export SOURCE_DATE_EPOCH
arch="$(dpkg --print-architecture)"
work="$(mktemp -d /tmp/nfctap-deb.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/root"
umask 022

# ---- the files, one line each ----
doc="$root/usr/share/doc/nfctap"
install -D -m 755 "$binary" "$root/usr/bin/nfctap"
# Debian ships binaries stripped (the static Swift runtime's symbols alone are tens of MB).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/nfctap"
install -D -m 644 udev/60-nfctap.rules "$root/usr/lib/udev/rules.d/60-nfctap.rules"
install -d "$root/usr/lib/systemd/system"
sed 's|/usr/local/bin/nfctap|/usr/bin/nfctap|g' systemd/nfctap-kiosk.service >"$root/usr/lib/systemd/system/nfctap-kiosk.service"
install -D -m 644 packaging/deb/sysusers.conf "$root/usr/lib/sysusers.d/nfctap.conf"
install -D -m 644 README.md "$doc/README.md"
install -d "$doc/docs" && install -m 644 docs/*.md "$doc/docs/"
install -D -m 644 Examples/kiosk.json "$doc/examples/kiosk.json"
install -m 644 packaging/deb/copyright "$doc/copyright"
python3 scripts/lib/changelog.py debian "$NFCTAP_MAINTAINER" "$SOURCE_DATE_EPOCH" | gzip -9n >"$doc/changelog.gz"
install -D -m 644 systemd/nfctap-agent.service "$root/usr/lib/systemd/user/nfctap-agent.service"
install -D -m 644 desktop/nfctap-agent.desktop "$root/usr/share/applications/nfctap-agent.desktop"

# Completions and man pages, generated from the command definitions of the binary packaged.
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
# bash-completion sources its files: no #! line (Debian's policy for completion snippets).
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/nfctap"
"$binary" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_nfctap"
"$binary" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/nfctap.fish"
"$binary" --experimental-dump-help >"$work/help.json"
python3 scripts/lib/manpages.py "$work/help.json" packaging/man "$root/usr/share/man" "$version"
gzip -9n "$root"/usr/share/man/man*/*.[0-9]

# ---- control data ----
# Shared-library dependencies as Debian computes them (dpkg-shlibdeps wants a debian/control).
mkdir -p "$work/src/debian"
printf 'Source: nfctap\n\nPackage: nfctap\nArchitecture: any\n' >"$work/src/debian/control"
shlibs="$(cd "$work/src" && dpkg-shlibdeps -O --ignore-missing-info -e"$root/usr/bin/nfctap" 2>/dev/null \
          | sed -n 's/^shlibs:Depends=//p')"
# The release binary's packed relative relocations (DT_RELR, scripts/lib/release-build.sh) need
# glibc 2.36's GLIBC_ABI_DT_RELR, a version without symbols, which dpkg-shlibdeps does not count.
# (Read whole, not piped into `grep -q`: grep stops at the first match, readelf then dies of SIGPIPE
# and, under pipefail, the check is false although the binary needs 2.36.)
versions="$(readelf -V "$root/usr/bin/nfctap")"
if grep -q GLIBC_ABI_DT_RELR <<<"$versions"; then
    shlibs="$(printf '%s' "$shlibs" | sed -E 's/libc6 \(>= 2\.([0-9]|[12][0-9]|3[0-5])(\.[0-9]+)?\)/libc6 (>= 2.36)/')"
fi
case "$shlibs" in
    *libnfc6*) ;;
    *) log "package-deb: libnfc6 is no longer a dependency, so its module blacklist is not installed: ship one"; exit 1 ;;
esac
# systemd-sysusers makes the user (postinst); deb-systemd-helper/-invoke are in the essential
# init-system-helpers.
# dpkg-shlibdeps names the linked libraries (libpcsclite1, libnfc6); libsystemd (sd-bus, sd-id128)
# and libmosquitto are opened on first use (CLazyLibrary), so they are named here, at the versions
# whose functions nfctap calls (sd_id128_get_machine_app_specific: systemd 233; libmosquitto 1.6).
depends="$shlibs, libsystemd0 (>= 246), libmosquitto1 (>= 1.6), pcscd, systemd | systemd-standalone-sysusers | systemd-sysusers"

find "$root" -type d -exec chmod 755 {} +
find "$root" -type f ! -path "$root/usr/bin/*" -exec chmod 644 {} +
size="$(du -sk --apparent-size "$root" | cut -f1)"

install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<EOF
Package: nfctap
Version: $version
Architecture: $arch
Maintainer: $NFCTAP_MAINTAINER
Installed-Size: $size
Depends: $depends
Recommends: libccid
Suggests: libnfc-bin, bluez, pcsc-tools
Section: utils
Priority: optional
Homepage: https://github.com/nfctap/nfctap
Description: NFC tags and readers on Linux with Apple's Core NFC model
 Read, write and lock NFC Forum Type 2 and Type 4 tags through PC/SC
 readers (pcscd) or PN53x/PN532 readers (libnfc); pair Zebra printers by
 tapping them; run unattended as a kiosk service.
 .
 Includes udev rules for reader access, the kiosk's systemd unit and
 system user, man pages and shell completions.
EOF
install -m 755 packaging/deb/postinst packaging/deb/prerm packaging/deb/postrm "$root/DEBIAN/"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

# Reproducible: every time stamp is SOURCE_DATE_EPOCH (dpkg-deb sorts the members, sets root
# owners, and uses SOURCE_DATE_EPOCH for the ar headers); one compressor thread.
find "$root" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$output"
deb="$output/nfctap_${version}_${arch}.deb"
dpkg-deb --root-owner-group --threads-max=1 -Zxz --build "$root" "$deb" >/dev/null
log "built $deb"

if [ "${lintian:-0}" = 1 ]; then
    command -v lintian >/dev/null 2>&1 || ensure_packages lintian
    log "lintian --pedantic $deb"
    if ! lintian --pedantic --fail-on error,warning "$deb" >&2; then
        log "package-deb: lintian found errors or warnings (above)"
        exit 1
    fi
fi
printf '%s\n' "$deb"
