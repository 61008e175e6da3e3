#!/usr/bin/env bash
# The Home Assistant ring: nfctap's MQTT station against a real, unmodified Home Assistant core
# (Tests/HomeAssistantRing/ha_ring.py says what it checks). scripts/test.sh runs it in its second
# lane (installing in stage 1, which has the network); alone, here, it needs
# Python >= 3.13 and installs Home Assistant from PyPI into a venv of its own (about 1 minute the
# first time with uv, seconds after), then takes up to ~4 minutes.
#
#   ./scripts/ha-ring.sh                  install what is missing, run the ring
#   ./scripts/ha-ring.sh --install-only   install what is missing, run nothing
#   ./scripts/ha-ring.sh ARGS...          ARGS go to ha_ring.py (--help lists them)
#
# Environment: NFCTAP_BIN (default .build/debug/nfctap), NFCTAP_HA_VENV (default .build/ha-venv),
# NFCTAP_HA_RING_BACKSTOP (seconds before a hung ring is killed from outside; default 420).
# Exit status: the ring's (0 when every scenario passed); 0 also when skipped for want of Python.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
. scripts/lib.sh

# Home Assistant core, the MQTT integration's client library, and the frontend: without the
# frontend package a core falls into recovery mode (frontend is one of its default integrations)
# and never serves its API. The same versions as HA 2025.4.4's own pins.
HA_PACKAGES=(homeassistant==2025.4.4 paho-mqtt==2.1.0 home-assistant-frontend==20250411.0)
venv="${NFCTAP_HA_VENV:-$repo/.build/ha-venv}"
nfctap="${NFCTAP_BIN:-$repo/.build/debug/nfctap}"

# True when PYTHON runs and is 3.13 or later.
python_ok() {
    [ -x "$1" ] || command -v "$1" >/dev/null 2>&1 || return 1
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 13) else 1)' 2>/dev/null
}

# Prints the first Python >= 3.13 found: pyenv's 3.13.x (newest first), python3.14, python3.13,
# python3. Fails when there is none.
find_python() {
    local candidate
    for candidate in $(ls -d /root/.pyenv/versions/3.13*/bin/python3 2>/dev/null | sort -rV) \
        python3.14 python3.13 python3; do
        if python_ok "$candidate"; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

# True when the venv already holds the pinned packages.
venv_complete() {
    "$venv/bin/python" - "${HA_PACKAGES[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
for pin in sys.argv[1:]:
    name, wanted = pin.split("==")
    try:
        if version(name) != wanted:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
}

# The venv with Home Assistant: reused when its Python is still >= 3.13, made anew otherwise;
# the packages installed by uv (from PyPI) when missing.
ensure_venv() {
    local python="$1"
    if ! python_ok "$venv/bin/python"; then
        log "Home Assistant ring: making the venv $venv ($("$python" --version))"
        rm -rf "$venv"
        "$python" -m venv "$venv"
    fi
    if venv_complete; then
        log "Home Assistant ring: venv ready ($venv)"
        return 0
    fi
    log "Home Assistant ring: installing ${HA_PACKAGES[*]} into $venv"
    "$venv/bin/python" -m pip install --quiet uv
    # uv reads neither pip's configuration nor its find-links: PyPI only. The system's CAs, as pip.
    "$venv/bin/python" -m uv pip install --native-tls --quiet --python "$venv/bin/python" "${HA_PACKAGES[@]}"
    venv_complete || { log "Home Assistant ring: the venv still lacks ${HA_PACKAGES[*]}"; return 1; }
}

python="$(find_python)" || {
    echo "Home Assistant ring skipped: no Python >= 3.13 on this machine (Home Assistant 2025.4 needs it)" >&2
    exit 0
}

install_start=$SECONDS
# Only the broker binary: ensure_packages stops the system broker if its install started one.
[ -x /usr/sbin/mosquitto ] || ensure_packages mosquitto
ensure_venv "$python"
log "Home Assistant ring: install took $((SECONDS - install_start)) s"

if [ "${1:-}" = --install-only ]; then exit 0; fi
[ -x "$nfctap" ] || { log "Home Assistant ring: no nfctap binary at $nfctap (swift build, or set NFCTAP_BIN)"; exit 1; }

ring_start=$SECONDS
status=0
# The ring keeps its own time limit (4 minutes); `timeout` is only a backstop for a hung ring
# (--foreground: a Ctrl-C still reaches the ring, which then stops what it started).
timeout --foreground --kill-after=20 "${NFCTAP_HA_RING_BACKSTOP:-420}" \
    "$venv/bin/python" Tests/HomeAssistantRing/ha_ring.py --nfctap "$nfctap" --venv "$venv" "$@" || status=$?
log "Home Assistant ring: the ring took $((SECONDS - ring_start)) s (exit $status)"
exit "$status"
