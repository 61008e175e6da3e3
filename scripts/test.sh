#!/usr/bin/env bash
# Runs every test: unit, protocol and system rings (shared/ARCHITECTURE.md).
# Installs what is missing, starts the daemons the system ring uses (scripts/services/*.sh:
# each defines start_<name> and stop_<name>), runs `swift test`, stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ensure_packages "${NFCTAP_RUNTIME_PACKAGES[@]}" "${NFCTAP_TEST_PACKAGES[@]}"
ensure_swift

export NFCTAP_TEST_RUN_DIR
NFCTAP_TEST_RUN_DIR="$(mktemp -d /tmp/nfctap-test.XXXXXX)"
# The system ring must not skip in this script: a missing daemon is a failure here.
export NFCTAP_REQUIRE_SYSTEM=1

services=()
for f in scripts/services/*.sh; do
    [ -e "$f" ] || continue
    . "$f"
    services+=("$(basename "$f" .sh)")
done

stop_all() {
    local rc=$?
    for s in "${services[@]}"; do "stop_$s" || true; done
    if [ "$rc" -ne 0 ]; then
        # The daemons' logs go with the run directory: show their ends first.
        for f in "$NFCTAP_TEST_RUN_DIR"/*.log; do
            [ -f "$f" ] || continue
            log "last lines of $f:"
            tail -n 30 "$f" >&2
        done
    fi
    rm -rf "$NFCTAP_TEST_RUN_DIR"
    exit $rc
}
trap stop_all EXIT INT TERM

log "building"
swift build --build-tests
for s in "${services[@]}"; do log "starting $s"; "start_$s"; done

# Rings 1 and 2 in parallel; ring 3 one test at a time: its suites share one pcscd (with two
# vpcd readers), one private bus and the org.bluez name, and restart pcscd under each other.
if [ "$#" -gt 0 ]; then
    log "running tests: $*"
    swift test --skip-build "$@"
else
    log "running unit and protocol tests"
    swift test --skip-build --skip SystemTests
    log "running system tests (serially: they share the daemons)"
    swift test --skip-build --filter SystemTests --no-parallel
    # Every fuzz target briefly, under AddressSanitizer (Fuzz/README.md; NFCTAP_FUZZ_SECONDS=0
    # replays the committed corpus and regression inputs only).
    log "brief fuzz pass"
    ./scripts/fuzz.sh --seconds "${NFCTAP_FUZZ_SECONDS:-5}"
fi
