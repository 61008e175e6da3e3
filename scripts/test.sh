#!/usr/bin/env bash
# Runs every test: unit, protocol and system rings (shared/ARCHITECTURE.md).
# Installs what is missing, starts the daemons the system ring uses (scripts/services/*.sh:
# each defines start_<name> and stop_<name>), runs `swift test`, stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ensure_packages
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
    rm -rf "$NFCTAP_TEST_RUN_DIR"
    exit $rc
}
trap stop_all EXIT INT TERM

log "building"
swift build --build-tests
for s in "${services[@]}"; do log "starting $s"; "start_$s"; done

log "running tests"
swift test --skip-build "$@"
log "brief fuzz pass"; ./scripts/fuzz.sh --seconds "${NFCTAP_FUZZ_SECONDS:-5}"  # Fuzz/README.md; NFCTAP_FUZZ_SECONDS=0 replays the corpus only
