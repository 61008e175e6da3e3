# Shared by scripts/run.sh and scripts/test.sh. Sourced, not run.

# Debian packages, one list per job, in one place.
# What the Swift toolchain itself needs on Debian 12 (swift.org's list for its Debian 12 tarball,
# binutils for binutils-gold, plus the C++ library a --static-swift-stdlib build links).
NFCTAP_SWIFT_PACKAGES=(
    binutils gcc git libc6-dev libstdc++-12-dev pkg-config tzdata
    libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev libpython3-dev libsqlite3-dev
    libxml2-dev uuid-dev
)
# What building and running nfctap needs (scripts/run.sh).
NFCTAP_RUNTIME_PACKAGES=(
    pkg-config
    libpcsclite-dev pcscd libccid     # PC/SC: build, daemon, USB CCID reader driver
    libnfc-dev libnfc-bin             # libnfc: build, nfc-list
    libsystemd-dev                    # sd-bus client (BlueZ pairing)
    libmosquitto-dev                  # MQTT client library (fleet: --publish)
)
# What the tests need on top (scripts/test.sh): a private bus with a BlueZ mock, the tools that
# check the packaging, and namespaces. The virtual reader driver (vsmartcard-vpcd) is NOT
# installed: its package adds /etc/reader.conf.d/vpcd, which puts virtual readers listening on
# every address into any pcscd of the machine; ensure_vpcd_driver unpacks the driver privately.
NFCTAP_TEST_PACKAGES=(
    dbus-daemon python3-dbusmock
    systemd udev            # systemd-analyze, udevadm (packaging checks)
    iproute2 util-linux     # ip, ss (scripts/services/pcscd-ctl); unshare (scripts/test.sh)
    dpkg-dev                # dpkg-shlibdeps (scripts/package-deb.sh and its test)
    xdg-utils desktop-file-utils   # nfctap agent: xdg-open/xdg-mime, desktop-file-validate
    mosquitto mosquitto-clients openssl   # a private MQTT broker with a test CA (scripts/services/mosquitto.sh)
    python3-jinja2          # Home Assistant's template engine: discovery templates rendered as HA does
    umockdev gir1.2-umockdev-1.0 libumockdev-dev python3-gi   # USB readers emulated for the real drivers (scripts/usb-reader-emulator)
    python3-pyscard         # the benchmark's baseline reader (scripts/bench.sh)
    lintian man-db sudo     # the package judged by lintian, its man pages read, the sudo-user check (Deb*Tests)
)

log() { printf 'nfctap: %s\n' "$*" >&2; }

# The sbin directories are not on a normal user's PATH, but the scripts run their tools
# (pcscd, mosquitto, ip, udevadm) as that user too.
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin" ;; esac
case ":$PATH:" in *:/sbin:*) ;; *) PATH="$PATH:/sbin" ;; esac
export PATH

# True when a process named NAME runs (from /proc: needs no procps, which may not be installed yet).
process_running() {
    local comm
    for comm in /proc/[0-9]*/comm; do
        [ "$(cat "$comm" 2>/dev/null)" = "$1" ] && return 0
    done
    return 1
}

# Installs the named Debian packages that are missing: `apt-get update` once, then `apt-get install -y`.
ensure_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        log "installing Debian packages: ${missing[*]}"
        $sudo apt-get update -qq
        local broker_before=""; if process_running mosquitto; then broker_before=1; fi
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
        case " ${missing[*]} " in *" mosquitto "*) stop_broker_started_by_install "$broker_before" ;; esac
    fi
}

# Debian's mosquitto package starts and enables the system broker (listening on every address)
# where systemd runs. The tests use their own broker on 127.0.0.1: stop and disable the system
# one, but only when this install started it (no broker ran before).
stop_broker_started_by_install() {
    local before="$1" sudo=""
    [ -z "$before" ] || return 0
    process_running mosquitto || return 0
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    log "stopping the system mosquitto that its package installation started"
    if [ -d /run/systemd/system ]; then
        $sudo systemctl disable --now mosquitto.service >/dev/null 2>&1 || true
    else
        $sudo service mosquitto stop >/dev/null 2>&1 || true
    fi
    if [ -s /run/mosquitto/mosquitto.pid ]; then $sudo kill "$(cat /run/mosquitto/mosquitto.pid)" 2>/dev/null || true; fi
}

# Puts Swift on PATH (the toolchain lives at /opt/swift on the project's machines), with the
# Debian packages the toolchain needs installed first.
ensure_swift() {
    ensure_packages "${NFCTAP_SWIFT_PACKAGES[@]}"
    if ! command -v swift >/dev/null 2>&1; then
        for d in /opt/swift/usr/bin /opt/swift/bin; do
            [ -x "$d/swift" ] && export PATH="$d:$PATH"
        done
    fi
    command -v swift >/dev/null 2>&1 || { log "Swift 6 is needed: install it to /opt/swift (https://swift.org/install)"; exit 1; }
}

# The vpcd reader driver for the test pcscd, without installing vsmartcard-vpcd: the package's
# /etc/reader.conf.d/vpcd would give every pcscd on the machine virtual readers listening on
# 0.0.0.0. Uses the installed driver when the machine has the package (its configuration is then
# the owner's business and is left alone); otherwise unpacks the package (apt-get download +
# dpkg-deb -x) under .build-test/vpcd/, once. Prints the driver's path.
# (NFCTAP_VPCD_SYSTEM_DRIVER=/nonexistent makes a machine with the package take the fresh-machine path.)
NFCTAP_VPCD_PACKAGED_DRIVER=/usr/lib/pcsc/drivers/serial/libifdvpcd.so
ensure_vpcd_driver() {
    local system="${NFCTAP_VPCD_SYSTEM_DRIVER:-$NFCTAP_VPCD_PACKAGED_DRIVER}"
    if [ -r "$system" ]; then
        printf '%s\n' "$system"
        return 0
    fi
    local dir="$PWD/.build-test/vpcd"
    local driver="$dir/root$NFCTAP_VPCD_PACKAGED_DRIVER"
    if [ ! -r "$driver" ]; then
        log "unpacking the vpcd driver (vsmartcard-vpcd, not installed) into $dir"
        rm -rf "$dir" && mkdir -p "$dir/root"
        if ! (cd "$dir" && apt-get download -qq vsmartcard-vpcd >/dev/null 2>&1); then
            local sudo=""
            [ "$(id -u)" -eq 0 ] || sudo="sudo"
            $sudo apt-get update -qq
            (cd "$dir" && apt-get download -qq vsmartcard-vpcd >/dev/null) || { log "apt-get download vsmartcard-vpcd failed"; return 1; }
        fi
        dpkg-deb -x "$dir"/vsmartcard-vpcd_*.deb "$dir/root"
        [ -r "$driver" ] || { log "vsmartcard-vpcd has no $NFCTAP_VPCD_PACKAGED_DRIVER"; return 1; }
    fi
    printf '%s\n' "$driver"
}

# A note (not an error) when vpcd is configured for the machine's own pcscd: its readers listen
# on every address. nfctap's scripts before issue 16 installed vsmartcard-vpcd for the tests.
warn_system_vpcd() {
    [ -e /etc/reader.conf.d/vpcd ] || return 0
    log "note: /etc/reader.conf.d/vpcd (vsmartcard-vpcd) gives this machine's pcscd virtual readers"
    log "      listening on 0.0.0.0:35963-35964. nfctap's tests no longer need it; if an older"
    log "      scripts/test.sh installed it (and you do not use vpcd), remove it: apt-get purge vsmartcard-vpcd"
}
