#!/usr/bin/env bash
# The main job on a fresh Debian machine: install what is missing, build nfctap, then
# - with a reader attached: wait for a tag and print what it holds (`nfctap scan`);
# - with no reader: say so, and run the built-in demo (`nfctap demo`) on virtual tags.
# Extra arguments go to `nfctap scan` (e.g. --json, --timeout 30, --reader ACR122).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ensure_packages "${NFCTAP_RUNTIME_PACKAGES[@]}"
ensure_swift
warn_system_vpcd

# pcscd is socket-activated under systemd; elsewhere (containers) start it ourselves
# (NFCTAP_START_PCSCD=0 leaves it alone: the tests of this script use it).
# (as root, or through sudo for a normal user; process_running needs no procps).
if [ "${NFCTAP_START_PCSCD:-1}" != 0 ] && ! process_running pcscd; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    if [ -d /run/systemd/system ]; then
        $sudo systemctl start pcscd.socket || true
    else
        $sudo pcscd >/dev/null 2>&1 || true
        sleep 0.5
    fi
fi

# NFCTAP_BIN=path uses an nfctap already built (the tests of this script do: `swift test`
# holds the build directory's lock, so a build from inside a test would wait for ever).
if [ -n "${NFCTAP_BIN:-}" ]; then
    bin="$NFCTAP_BIN"
else
    log "building (release)"
    # The build's progress lines are dropped, its diagnostics kept: a failed build shows its
    # errors (and the last lines it printed) instead of only an exit status.
    build_log="$(mktemp /tmp/nfctap-build.XXXXXX)"
    if ! swift build -c release --product nfctap >"$build_log" 2>&1; then
        grep -Ev '^\[[0-9]+/[0-9]+\] ' "$build_log" >&2 || true
        rm -f "$build_log"
        log "the build failed (errors above)"
        exit 1
    fi
    rm -f "$build_log"
    bin="$(swift build -c release --show-bin-path)/nfctap"
fi

# A real reader: any reader but vpcd's "Virtual PCD" ones (present when vsmartcard-vpcd is installed).
readers_json="$("$bin" readers --json 2>/dev/null || true)"
if printf '%s' "$readers_json" | grep -o '"name":"[^"]*"' | grep -qv '"name":"Virtual PCD'; then
    exec "$bin" scan "$@"
fi
log "no NFC reader found (see 'nfctap doctor' for why)."
log "running the built-in demo on virtual tags instead: $bin demo"
exec "$bin" demo
