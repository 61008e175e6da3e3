# Shared by scripts/run.sh and scripts/test.sh. Sourced, not run.

# Every Debian package the project needs to build, test and run. One list, one place.
NFCTAP_DEBIAN_PACKAGES=(
    pkg-config
    libpcsclite-dev pcscd libccid vsmartcard-vpcd pcsc-tools   # PC/SC: build, daemon, USB CCID driver, virtual reader
    libnfc-dev libnfc-bin                               # libnfc: build + nfc-list / nfc-mfultralight
    libsystemd-dev dbus-daemon python3-dbusmock         # sd-bus client + private bus + BlueZ mock
    systemd udev                                        # systemd-analyze / udevadm for packaging checks
)

log() { printf 'nfctap: %s\n' "$*" >&2; }

# Installs the Debian packages that are missing: `apt-get update` once, then `apt-get install -y`.
ensure_packages() {
    local missing=()
    for p in "${NFCTAP_DEBIAN_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        log "installing Debian packages: ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# Puts Swift on PATH (the toolchain lives at /opt/swift on the project's machines).
ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for d in /opt/swift/usr/bin /opt/swift/bin; do
            [ -x "$d/swift" ] && export PATH="$d:$PATH"
        done
    fi
    command -v swift >/dev/null 2>&1 || { log "Swift 6 is needed: install it to /opt/swift (https://swift.org/install)"; exit 1; }
}
