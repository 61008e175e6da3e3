#!/usr/bin/env bash
# The fleet figures of docs/fleet.md, library level: records/s one station publishes (20,000
# records), records/s one broker takes from 20 stations (1,000 records each: the sets of the
# budgets), tap → consumer latency. Starts a private mosquitto on 127.0.0.1 (in a private
# network namespace when run as root), runs `nfctap-bench fleet`, stops it. Markdown on stdout.
# Usage: scripts/fleet-bench.sh [records] [stations] [records-per-station] [latency-samples]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
if [ "$(id -u)" -eq 0 ] && [ -z "${NFCTAP_FLEET_BENCH_NS:-}" ]; then
    exec env NFCTAP_FLEET_BENCH_NS=1 unshare -n bash -c 'ip link set lo up; exec "$0" "$@"' "$0" "$@"
fi
ensure_packages "${NFCTAP_RUNTIME_PACKAGES[@]}" mosquitto openssl
ensure_swift
swift build -c release --product nfctap-bench >&2
export NFCTAP_TEST_RUN_DIR
NFCTAP_TEST_RUN_DIR="$(mktemp -d /tmp/nfctap-fleet-bench.XXXXXX)"
. scripts/services/mosquitto.sh
trap 'stop_mosquitto; rm -rf "$NFCTAP_TEST_RUN_DIR"' EXIT
start_mosquitto
.build/release/nfctap-bench fleet "$NFCTAP_MOSQUITTO_PORT" "$@"
echo
echo "(In-process forwarders. The fleet budgets — \`nfctap fleet forward\` processes against"
echo "\`mosquitto_pub -q 1 -l\`, peers in the same run — are printed by scripts/bench-commands.sh, C4 and its budgets table.)"
