#!/usr/bin/env bash
# Soak test (issue 8 item 3): the kiosk's runner (`nfctap-soak`, Benchmarks/nfctap-soak) under TAPS virtual taps (default 10000) in one process,
# with a reader unplugged/replugged every 300 taps and the reader service lost/restored every 1000.
# Samples RSS (VmRSS), open fds and threads every TAPS/40 taps, prints the table and PASS/FAIL;
# exits non-zero on growth or on any tap without exactly one JSON line and one green.
# Usage: scripts/soak.sh [TAPS]      (at least 100)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift

taps="${1:-10000}"
case "$taps" in ''|*[!0-9]*) log "soak: TAPS must be a number, got '$taps'"; exit 64 ;; esac

swift build --product nfctap-soak >/dev/null
bin="$(swift build --show-bin-path)/nfctap-soak"
log "soak: $taps taps"
start=$(date +%s%N)
# Kiosk logs (reader removed/lost lines) go to stderr; the table and the verdict to stdout.
status=0
"$bin" "$taps" 2>/dev/null || status=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
log "soak: finished in $((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000))) s, exit status $status"
exit "$status"
