# Shared by scripts/run.sh and scripts/test.sh. Sourced, not run.

# Debian packages, one list per job, in one place.
# What building and running nfctap needs (scripts/run.sh).
NFCTAP_RUNTIME_PACKAGES=(
    pkg-config
    libpcsclite-dev pcscd libccid     # PC/SC: build, daemon, USB CCID reader driver
    libnfc-dev libnfc-bin             # libnfc: build, nfc-list
    libsystemd-dev                    # sd-bus client (BlueZ pairing)
    procps                            # pgrep (run.sh: is pcscd running?)
    libmosquitto-dev                  # MQTT client library (fleet: --publish)
)
# What the tests need on top (scripts/test.sh): a virtual reader driver, a private bus with a BlueZ
# mock, and the tools that check the packaging. Not installed by run.sh: vpcd adds virtual readers
# to the system's pcscd.
NFCTAP_TEST_PACKAGES=(
    vsmartcard-vpcd pcsc-tools
    dbus-daemon python3-dbusmock
    systemd udev iproute2   # systemd-analyze, udevadm; ss (scripts/services/pcscd-ctl)
    mosquitto mosquitto-clients openssl   # a private MQTT broker with a test CA (scripts/services/mosquitto.sh)
)

log() { printf 'nfctap: %s\n' "$*" >&2; }

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
        local broker_before; broker_before="$(pgrep -x mosquitto || true)"
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
    pgrep -x mosquitto >/dev/null || return 0
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    log "stopping the system mosquitto that its package installation started"
    if [ -d /run/systemd/system ]; then
        $sudo systemctl disable --now mosquitto.service >/dev/null 2>&1 || true
    else
        $sudo service mosquitto stop >/dev/null 2>&1 || true
    fi
    if [ -s /run/mosquitto/mosquitto.pid ]; then $sudo kill "$(cat /run/mosquitto/mosquitto.pid)" 2>/dev/null || true; fi
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
