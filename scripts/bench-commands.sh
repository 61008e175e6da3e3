#!/usr/bin/env bash
# Whole command against whole command: what a user or a script runs, one process per tap, start-up
# included, every peer on the SAME emulated device and tag, interleaved in one invocation (run i of
# every peer before run i+1 of any) so each ratio is a paired one. Markdown on stdout, progress on
# stderr. Part of scripts/bench.sh; runs alone too:
#
#   scripts/bench-commands.sh            # 15 runs per peer and setting, 9 fleet rounds per set
#   scripts/bench-commands.sh --quick    # 5 runs, 3 fleet rounds per set (what scripts/test.sh prints)
#
# Sections: C1 start-up; C2 one tap of an NTAG213 on the emulated PN532 (libnfc pn532_uart) at 0
# and 5 ms per tag exchange: nfctap scan --json, nfc-mfultralight r, an nfcpy program; C4
# long-running fleet stations vs mosquitto_pub -q 1 -l into one private broker (one station with
# 20,000 records; 20 stations with 1,000 each); then the budgets table: every budget beside its
# figure, met or NOT met (a measurement: nothing here fails the run). Figures: median and the
# p10–p90 spread over the runs. Every peer's program is first dropped from the page cache and run
# once unmeasured (see page_cache_drop), and only the peers' own work is timed (C4's outbox copies
# are made before the clock starts).
#
# The nfctap measured is the release build the Debian package ships (NFCTAP_BIN overrides it).
# Needs root only for nfcpy's /dev/ttyUSB<n> link (removed on exit) and the network namespace
# that keeps the broker on loopback. Environment: BENCH_CMD_RUNS, BENCH_FLEET_ROUNDS (rounds per
# fleet set), BENCH_FLEET_ONE_RECORDS (20000), BENCH_FLEET_STATIONS (20), BENCH_FLEET_RECORDS
# (records per station, 1000) — the budgets are stated for the defaults —,
# BENCH_FLEET_BASELINE=<another nfctap binary> (a third C4 publisher in every round, to compare two
# builds paired, round by round), BENCH_KEEP_PAGE_CACHE=1 (measure the programs as they are cached
# now, e.g. just after the build).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
ensure_packages time mosquitto mosquitto-clients libnfc-bin python3-venv valgrind

QUICK=0
[ "${1:-}" = --quick ] && QUICK=1
RUNS="${BENCH_CMD_RUNS:-$([ "$QUICK" = 1 ] && echo 5 || echo 15)}"
# A start-up is a few milliseconds, so one busy moment moves a median of five: C1 runs at least 15.
START_RUNS=$((RUNS > 15 ? RUNS : 15))
ONE_RECORDS="${BENCH_FLEET_ONE_RECORDS:-20000}"
STATIONS="${BENCH_FLEET_STATIONS:-20}"
RECORDS="${BENCH_FLEET_RECORDS:-1000}"
FLEET_ROUNDS="${BENCH_FLEET_ROUNDS:-$([ "$QUICK" = 1 ] && echo 3 || echo 9)}"

OUT="$PWD/.build-bench"
mkdir -p "$OUT"
# nfcpy from PyPI in the venv scripts/bench.sh also uses (before the namespace: pip needs the network).
if [ -z "${NFCTAP_BENCH_CMD_NS:-}" ]; then
    [ -x "$OUT/venv/bin/python" ] || /usr/bin/python3 -m venv "$OUT/venv" >&2 2>/dev/null || true
    if [ -x "$OUT/venv/bin/python" ] && ! "$OUT/venv/bin/python" -c 'import nfc' 2>/dev/null; then
        "$OUT/venv/bin/pip" install -q nfcpy >&2 2>/dev/null || log "pip install nfcpy failed: the nfcpy rows are skipped"
    fi
fi
PY=""
"$OUT/venv/bin/python" -c 'import nfc' 2>/dev/null && PY="$OUT/venv/bin/python"

NFCTAP="${NFCTAP_BIN:-}"
if [ -z "$NFCTAP" ]; then
    log "building nfctap as the package ships it (scripts/package-deb.sh's flags)"
    if [ -r scripts/lib/release-build.sh ]; then
        . scripts/lib/release-build.sh
        release_build nfctap
        NFCTAP="$(release_bin_dir)/nfctap"
    else
        swift build -c release --product nfctap --static-swift-stdlib --scratch-path .build-deb >&2
        NFCTAP="$(swift build -c release --static-swift-stdlib --scratch-path .build-deb --show-bin-path)/nfctap"
    fi
fi

# The broker and the stations talk over loopback only: a private network namespace as root.
if [ "$(id -u)" -eq 0 ] && [ -z "${NFCTAP_BENCH_CMD_NS:-}" ]; then
    exec env NFCTAP_BENCH_CMD_NS=1 NFCTAP_BIN="$NFCTAP" unshare --net --mount --propagation private \
        bash -c 'ip link set lo up; exec "$0" "$@"' "$0" "$@"
fi

RUN="$(mktemp -d /tmp/nfctap-bench-cmd.XXXXXX)"
SERVE_PID=""
TTY_LINK=""
BROKER_STARTED=""

cleanup() {
    local rc=$?
    [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null || true
    [ -n "$TTY_LINK" ] && [ -L "$TTY_LINK" ] && rm -f "$TTY_LINK"
    [ -n "$BROKER_STARTED" ] && stop_mosquitto >/dev/null 2>&1 || true
    pkill -P $$ 2>/dev/null || true
    rm -rf "$RUN"
    exit $rc
}
trap cleanup EXIT INT TERM

# ---- statistics over one file of numbers (one per line) ----
# quantile FILE Q: the Q-quantile (0..1) by nearest rank.
quantile() { sort -g "$1" | awk -v q="$2" '{ v[NR] = $1 } END { if (NR == 0) { print ""; exit } i = int(q * NR + 0.999999); if (i < 1) i = 1; if (i > NR) i = NR; print v[i] }'; }
# summary FILE: "median (p10–p90)" with one decimal.
summary() { local m lo hi; m="$(quantile "$1" 0.5)"; lo="$(quantile "$1" 0.1)"; hi="$(quantile "$1" 0.9)"
    [ -n "$m" ] || { echo "–"; return; }; awk -v m="$m" -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%.1f (%.1f–%.1f)", m, lo, hi }'; }
median() { quantile "$1" 0.5; }
# ratio A B: A / B as "1.23×" ("–" when either is missing or B is 0).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 == 0) print "–"; else printf "%.2f×", a / b }'; }

# measure NAME CMD…: runs CMD once (stdout and stderr to files), appends its wall time in ms to
# $RUN/NAME.ms and its peak RSS in MiB to $RUN/NAME.rss; a failed run goes to $RUN/NAME.fail.
RUN_TAG=""   # "warmup": the run is not recorded (its figures go to NAME-warmup files)
measure() {
    local name="$1${RUN_TAG:+-$RUN_TAG}"; shift
    local t0 t1 status=0
    t0="$(date +%s%N)"
    /usr/bin/time -f '%M' -o "$RUN/$name.time" "$@" >"$RUN/$name.out" 2>"$RUN/$name.err" || status=$?
    t1="$(date +%s%N)"
    if [ "$status" -ne 0 ] && [ -z "${MEASURE_ANY_STATUS:-}" ]; then
        echo "exit $status: $(tail -n 2 "$RUN/$name.err" | tr '\n' ' ')" >>"$RUN/$name.fail"
        return 0
    fi
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' >>"$RUN/$name.ms"
    awk '/^[0-9]+$/ { printf "%.2f\n", $1 / 1024 }' "$RUN/$name.time" | tail -n 1 >>"$RUN/$name.rss"
}
fails() { [ -s "$RUN/$1.fail" ] && echo "$(wc -l <"$RUN/$1.fail") failed: $(head -n 1 "$RUN/$1.fail")" || echo ""; }

# ---- the PN532 emulator in its own process: `nfctap emulate --pn532-pty`, NTAG213 preset ----
start_serve() {
    rm -f "$RUN/serve.out"
    # From a copy of the binary: the emulator running the measured file would keep its pages
    # cached and mapped, a warm start that `nfc-mfultralight` and nfcpy do not get.
    [ -x "$RUN/nfctap-emulator" ] || cp "$NFCTAP" "$RUN/nfctap-emulator"
    "$RUN/nfctap-emulator" emulate --pn532-pty --preset "${2:-ntag213}" --latency "$1" >"$RUN/serve.out" 2>"$RUN/serve.err" &
    SERVE_PID=$!
    local i
    for i in $(seq 1 200); do grep -q '^pn532_uart:' "$RUN/serve.out" 2>/dev/null && break; sleep 0.05; done
    PTY="$(sed -n 's/^pn532_uart://p' "$RUN/serve.out" | head -n 1)"
    [ -n "$PTY" ] || { log "the PN532 emulator did not start: $(cat "$RUN/serve.out" "$RUN/serve.err")"; exit 1; }
}
stop_serve() {
    kill -INT "$SERVE_PID" 2>/dev/null || true
    wait "$SERVE_PID" 2>/dev/null || true
    SERVE_PID=""
}

# Every peer's program as on a machine where it was installed a while ago, not just written. A
# file just built (or just unpacked by dpkg) has ALL its pages in the page cache, and the kernel's
# fault-around maps up to 64 KiB of already-cached pages at every fault, so more of a large binary
# becomes resident than it uses: the same nfctap `scan` peaks at 11.9 MiB just after the build and
# at 11.1 MiB once its pages have been read back from disk (the kernel reads back only what it faults in).
# Each program's cached pages are dropped (POSIX_FADV_DONTNEED, which leaves mapped pages alone)
# and every section runs each peer once, unmeasured, before its measured runs.
page_cache_drop() {
    python3 - "$@" <<'PY'
import os, sys
for path in sys.argv[1:]:
    fd = os.open(os.path.realpath(path), os.O_RDONLY)
    try:
        # Written back first: DONTNEED leaves dirty pages cached, and a binary just linked or
        # copied is all dirty pages (the same nfctap measured 11.5 MiB in `scan` as a fresh copy,
        # 10.6 MiB once written back).
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
PY
}
BASELINE="${BENCH_FLEET_BASELINE:-}"
peer_programs=("$NFCTAP")
[ -n "$BASELINE" ] && peer_programs+=("$BASELINE")
for p in nfc-list nfc-mfultralight mosquitto_pub; do command -v "$p" >/dev/null && peer_programs+=("$(command -v "$p")"); done
[ -n "$PY" ] && peer_programs+=("$PY")
if [ -z "${BENCH_KEEP_PAGE_CACHE:-}" ]; then
    page_cache_drop "${peer_programs[@]}" || log "could not drop the programs' cached pages: figures are of just-written binaries"
fi

mkdir -p "$RUN/shim"
printf '#!/bin/sh\nexit 1\n' >"$RUN/shim/stty"   # keeps nfcpy at 115200 baud on the pty (bench.sh §2)
chmod +x "$RUN/shim/stty"

echo "### Whole command vs whole command"
echo
echo "\`scripts/bench-commands.sh$([ "$QUICK" = 1 ] && echo " --quick")\`, $(date -u +%Y-%m-%d), $(nproc) cores, $RUNS runs per peer ($START_RUNS for start-up),"
echo "peers interleaved run by run, taking turns at going first. Each figure is the median, the p10–p90"
echo "spread in brackets; ratios are of medians, nfctap's figure divided by the peer's (below 1.00×"
echo "nfctap is faster or smaller)."
echo "nfctap: the release binary the Debian package ships ($(basename "$NFCTAP"), $(du -m "$NFCTAP" | cut -f1) MB)."
if [ -z "${BENCH_KEEP_PAGE_CACHE:-}" ]; then
    echo "Every peer's program was dropped from the page cache and run once unmeasured first (as installed a while ago)."
else
    echo "The programs were measured as cached now (BENCH_KEEP_PAGE_CACHE=1: a binary just built has all its pages cached)."
fi
echo

# ---- C1: start-up ----
log "C1: start-up"
"$NFCTAP" --version >/dev/null 2>&1 || true                  # unmeasured first runs (see above)
command -v nfc-list >/dev/null && { nfc-list --version >/dev/null 2>&1 || true; }
for i in $(seq 1 "$START_RUNS"); do
    measure version-nfctap "$NFCTAP" --version
    # nfc-list has no --version: it prints its libnfc version and usage, exit 1 (the same work).
    command -v nfc-list >/dev/null && MEASURE_ANY_STATUS=1 measure version-nfclist nfc-list --version
done
# Instructions to start, which the machine's load does not change: callgrind, on a stripped copy
# (valgrind gives up on the static binary's debug information).
# (nfc-list --version exits 1: its status must not end the script under set -e and pipefail.)
instructions() { { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -n 1; }
millions() { awk -v n="$1" 'BEGIN { if (n == "") print "–"; else printf "%.1f M", n / 1e6 }'; }
nfctap_instructions=""; nfclist_instructions=""
if command -v valgrind >/dev/null && strip -o "$RUN/nfctap-stripped" "$NFCTAP" 2>/dev/null; then
    nfctap_instructions="$(instructions "$RUN/nfctap-stripped" --version)"
    command -v nfc-list >/dev/null && nfclist_instructions="$(instructions nfc-list --version)"
fi
echo "**C1. Process start-up** (print the version and exit; instructions counted by \`valgrind --tool=callgrind\`)"
echo
echo "| command | ms | peak RSS MiB | instructions | vs nfctap (ms) |"
echo "|---|---|---|---|---|"
echo "| \`nfctap --version\` | $(summary "$RUN/version-nfctap.ms") | $(summary "$RUN/version-nfctap.rss") | $(millions "$nfctap_instructions") | 1.00× |"
if [ -s "$RUN/version-nfclist.ms" ]; then
    echo "| \`nfc-list --version\` (libnfc, C) | $(summary "$RUN/version-nfclist.ms") | $(summary "$RUN/version-nfclist.rss") | $(millions "$nfclist_instructions") | nfctap $(ratio "$(median "$RUN/version-nfctap.ms")" "$(median "$RUN/version-nfclist.ms")") |"
fi
echo

# ---- C2: one tap, whole process, same emulated PN532 + NTAG213 ----
for latency in 0 5; do
    log "C2: one tap at $latency ms per exchange"
    start_serve "$latency"
    if [ -n "$PY" ] && [ "$(id -u)" -eq 0 ] && [ -z "$TTY_LINK" ]; then
        for n in $(seq 90 99); do [ -e "/dev/ttyUSB$n" ] || { TTY_LINK="/dev/ttyUSB$n"; break; }; done
    fi
    [ -n "$TTY_LINK" ] && ln -sf "$PTY" "$TTY_LINK"
    tap_nfctap() { measure "scan-$latency" "$NFCTAP" scan --json --timeout 10 --reader "libnfc:pn532_uart:$PTY"; }
    tap_mfu() { LIBNFC_DEVICE="pn532_uart:$PTY" LIBNFC_AUTO_SCAN=false measure "mfu-$latency" nfc-mfultralight r "$RUN/dump.mfd"; }
    tap_nfcpy() { PATH="$RUN/shim:$PATH" PYTHONPATH="$PWD/Benchmarks/peers" measure "nfcpy-$latency" "$PY" Benchmarks/peers/nfcpy_scan.py "tty:${TTY_LINK#/dev/tty}:pn532"; }
    peers=(tap_nfctap tap_mfu)
    [ -n "$TTY_LINK" ] && peers+=(tap_nfcpy)
    # The peers take turns at going first (as C4's publishers do), so no one always follows the same other.
    for i in 0 $(seq 1 "$RUNS"); do
        [ "$i" = 0 ] && RUN_TAG=warmup || RUN_TAG=""
        for k in "${!peers[@]}"; do "${peers[$(( (k + i) % ${#peers[@]} ))]}"; done
    done
    # Every peer must have read the tag: nfctap's JSON names its UID; nfcpy printed the message.
    grep -q '"uid"' "$RUN/scan-$latency.out" || echo "nfctap printed no tag: $(head -c 200 "$RUN/scan-$latency.err")" >>"$RUN/scan-$latency.fail"
    [ -n "$TTY_LINK" ] && rm -f "$TTY_LINK"
    stop_serve
done
echo "**C2. One tap of an NTAG213 on the emulated PN532 (libnfc \`pn532_uart\`), whole process**"
echo "(start-up, open the device, find the tag, read it, print, close). nfctap: \`scan --json --reader"
echo "libnfc:pn532_uart:<pty>\`; \`nfc-mfultralight r\` dumps every page; nfcpy: \`Benchmarks/peers/nfcpy_scan.py\`"
echo "(open, \`connect\`, \`tag.ndef\`, close)."
echo
echo "| per exchange | command | ms | peak RSS MiB | nfctap vs it | note |"
echo "|---|---|---|---|---|---|"
for latency in 0 5; do
    ms_nfctap="$(median "$RUN/scan-$latency.ms" 2>/dev/null || true)"
    echo "| $latency ms | \`nfctap scan --json\` | $(summary "$RUN/scan-$latency.ms") | $(summary "$RUN/scan-$latency.rss") | 1.00× | $(fails "scan-$latency") |"
    echo "| $latency ms | \`nfc-mfultralight r\` | $(summary "$RUN/mfu-$latency.ms") | $(summary "$RUN/mfu-$latency.rss") | $(ratio "$ms_nfctap" "$(median "$RUN/mfu-$latency.ms" 2>/dev/null || true)") | $(fails "mfu-$latency") |"
    if [ -s "$RUN/nfcpy-$latency.ms" ]; then
        echo "| $latency ms | nfcpy $("$PY" -c 'import nfc; print(nfc.__version__)' 2>/dev/null) program | $(summary "$RUN/nfcpy-$latency.ms") | $(summary "$RUN/nfcpy-$latency.rss") | $(ratio "$ms_nfctap" "$(median "$RUN/nfcpy-$latency.ms")") | $(fails "nfcpy-$latency") |"
    else
        echo "| $latency ms | nfcpy program | – | – | – | not run (needs root for /dev/ttyUSB<n> and nfcpy from PyPI) $(fails "nfcpy-$latency") |"
    fi
done
echo

# ---- C3: a MIFARE Classic 1K (NDEF formatted, AN1305) on the same emulated PN532 ----
# Whole card against whole card: `nfctap dump` and `nfc-mfclassic r a u` (libnfc's tool, default
# keys) each authenticate every sector and read its 64 blocks; `nfctap scan --json` reads the NDEF
# message only (the MAD sector, then the NDEF sectors to the TLV's end). The dump also finds each
# sector's key B, which `r a` does not: 6 exchanges per 4-block sector against 5, so its floor at
# 5 ms per exchange is 1.2x the C tool's (the budgets below).
if command -v nfc-mfclassic >/dev/null; then
    for latency in 0 5; do
        log "C3: a MIFARE Classic 1K at $latency ms per exchange"
        start_serve "$latency" classic-1k
        classic_dump() { measure "cdump-$latency" "$NFCTAP" dump --json --timeout 10 --reader "libnfc:pn532_uart:$PTY"; }
        classic_scan() { measure "cscan-$latency" "$NFCTAP" scan --json --timeout 10 --reader "libnfc:pn532_uart:$PTY"; }
        classic_mfc() { LIBNFC_DEVICE="pn532_uart:$PTY" LIBNFC_AUTO_SCAN=false measure "mfc-$latency" nfc-mfclassic r a u "$RUN/classic.mfd"; }
        peers=(classic_dump classic_scan classic_mfc)
        for i in 0 $(seq 1 "$RUNS"); do
            [ "$i" = 0 ] && RUN_TAG=warmup || RUN_TAG=""
            for k in "${!peers[@]}"; do "${peers[$(( (k + i) % ${#peers[@]} ))]}"; done
        done
        grep -q '"blocks"' "$RUN/cdump-$latency.out" || echo "nfctap dumped nothing: $(head -c 200 "$RUN/cdump-$latency.err")" >>"$RUN/cdump-$latency.fail"
        grep -q 'Done, 64 of 64 blocks read' "$RUN/mfc-$latency.out" || echo "nfc-mfclassic did not read all 64 blocks" >>"$RUN/mfc-$latency.fail"
        stop_serve
    done
    echo "**C3. A MIFARE Classic 1K (NDEF formatted) on the emulated PN532 (libnfc \`pn532_uart\`), whole process.**"
    echo "\`nfctap dump --json\` and \`nfc-mfclassic r a u\` read every block of every sector with the well-known keys;"
    echo "\`nfctap scan --json\` reads the NDEF message (MAD sector, then the NDEF sectors to the TLV's end)."
    echo
    echo "| per exchange | command | ms | peak RSS MiB | vs \`nfc-mfclassic r\` | note |"
    echo "|---|---|---|---|---|---|"
    for latency in 0 5; do
        ms_mfc="$(median "$RUN/mfc-$latency.ms" 2>/dev/null || true)"
        echo "| $latency ms | \`nfctap dump --json\` | $(summary "$RUN/cdump-$latency.ms") | $(summary "$RUN/cdump-$latency.rss") | $(ratio "$(median "$RUN/cdump-$latency.ms" 2>/dev/null || true)" "$ms_mfc") | $(fails "cdump-$latency") |"
        echo "| $latency ms | \`nfctap scan --json\` (NDEF only) | $(summary "$RUN/cscan-$latency.ms") | $(summary "$RUN/cscan-$latency.rss") | $(ratio "$(median "$RUN/cscan-$latency.ms" 2>/dev/null || true)" "$ms_mfc") | $(fails "cscan-$latency") |"
        echo "| $latency ms | \`nfc-mfclassic r a u\` | $(summary "$RUN/mfc-$latency.ms") | $(summary "$RUN/mfc-$latency.rss") | 1.00× | $(fails "mfc-$latency") |"
    done
    echo
fi

# ---- C4: long-running fleet stations vs mosquitto_pub -q 1 -l, into one private broker ----
# Two sets, each a budget: ONE station with a backlog of $ONE_RECORDS records against one
# mosquitto_pub process; $STATIONS stations of $RECORDS records each against $STATIONS
# mosquitto_pub processes. The measure: from starting the publishers until a QoS 1 subscriber has
# every record. `fleet forward` is the long-running station (it runs until stopped: killed once the
# subscriber has everything); mosquitto_pub -l ends at the end of its input.
if command -v mosquitto >/dev/null && command -v mosquitto_pub >/dev/null && command -v mosquitto_sub >/dev/null; then
    export NFCTAP_TEST_RUN_DIR="$RUN/broker"
    mkdir -p "$NFCTAP_TEST_RUN_DIR"
    . scripts/services/mosquitto.sh
    start_mosquitto >"$RUN/broker.log" 2>&1 && BROKER_STARTED=1
    port="$NFCTAP_MOSQUITTO_PORT"
    mkdir -p "$RUN/fleet"
    # records SET N S: station S's N records of set SET (≈ 190 bytes each, as an inventory writes them).
    records() {
        awk -v n="$2" -v s="$3" 'BEGIN { for (i = 1; i <= n; i++) printf "{\"seq\":%d,\"time\":\"2026-11-25T03:00:00.000Z\",\"uid\":\"04A1B2C3D4E5%02X\",\"type\":\"ntag213\",\"product\":\"NTAG213\",\"reader\":\"Bench Reader 00 00\",\"summary\":\"https://example.com/asset/%d\",\"duplicate\":false}\n", i, s % 256, i }' >"$RUN/fleet/records-$1-$3.jsonl"
    }
    records one "$ONE_RECORDS" 1
    for s in $(seq 1 "$STATIONS"); do records many "$RECORDS" "$s"; done
    # fleet_round PUBLISHER SET ROUND: the set's publisher processes started at once. Appends ms
    # to $RUN/PUBLISHER-SET.ms, each process's peak RSS to $RUN/PUBLISHER-SET.rss.
    fleet_round() {
        local name="$1" set="$2" round="$3" n count
        if [ "$set" = one ]; then n=1 count="$ONE_RECORDS"; else n="$STATIONS" count="$RECORDS"; fi
        local total=$((n * count)) topic="bench/$name/$set/$round"
        rm -f "$RUN/sub.ready"
        mosquitto_sub -h 127.0.0.1 -p "$port" -q 1 -t "$topic/#" -C "$total" -W 300 >/dev/null 2>"$RUN/sub.err" &
        local sub=$!
        sleep 0.3   # the subscription is in place before the first publish
        local t0 t1 pids=() s
        # Each forwarder's outbox is a fresh copy of its records, made before the clock starts:
        # mosquitto_pub reads the same file, and copying is neither peer's work.
        local forwarder="$NFCTAP"
        [ "$name" = baseline ] && forwarder="$BASELINE"
        if [ "$name" != pub ]; then
            for s in $(seq 1 "$n"); do cp "$RUN/fleet/records-$set-$s.jsonl" "$RUN/fleet/outbox-$name-$set-$round-$s.jsonl"; done
        fi
        t0="$(date +%s%N)"
        for s in $(seq 1 "$n"); do
            if [ "$name" != pub ]; then
                /usr/bin/time -f '%M' -o "$RUN/fleet/rss-$set-$round-$s" \
                    "$forwarder" fleet forward "$RUN/fleet/outbox-$name-$set-$round-$s.jsonl" --publish "mqtt://127.0.0.1:$port/$topic/s$s" \
                    >/dev/null 2>"$RUN/fleet/err-$set-$round-$s" &
            else
                /usr/bin/time -f '%M' -o "$RUN/fleet/rss-$set-$round-$s" \
                    mosquitto_pub -h 127.0.0.1 -p "$port" -q 1 -t "$topic/s$s" -l <"$RUN/fleet/records-$set-$s.jsonl" \
                    >/dev/null 2>"$RUN/fleet/err-$set-$round-$s" &
            fi
            pids+=($!)
        done
        local status=0
        wait "$sub" || status=$?
        t1="$(date +%s%N)"
        # The forwarders run until stopped; mosquitto_pub ends at the end of its input.
        if [ "$name" != pub ]; then for p in "${pids[@]}"; do pkill -TERM -P "$p" 2>/dev/null || true; done; fi
        wait "${pids[@]}" 2>/dev/null || true
        rm -f "$RUN/fleet/outbox-$name-$set-$round-"*
        if [ "$status" -ne 0 ]; then
            echo "round $round: the subscriber did not get all $total records ($(cat "$RUN/sub.err"))" >>"$RUN/$name-$set.fail"
            return 0
        fi
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' >>"$RUN/$name-$set.ms"
        for s in $(seq 1 "$n"); do awk '/^[0-9]+$/ { printf "%.2f\n", $1 / 1024 }' "$RUN/fleet/rss-$set-$round-$s" | tail -n 1; done >>"$RUN/$name-$set.rss"
    }
    # The publishers take turns at going first: in a fixed order the first of a round was the
    # slowest whatever it was, which counted against nfctap in every ratio.
    publishers=(nfctap)
    [ -n "$BASELINE" ] && publishers+=(baseline)
    publishers+=(pub)
    for set in one many; do
        if [ "$set" = one ]; then log "C4: one station × $ONE_RECORDS records, $FLEET_ROUNDS rounds"
        else log "C4: $STATIONS stations × $RECORDS records, $FLEET_ROUNDS rounds"; fi
        for round in $(seq 1 "$FLEET_ROUNDS"); do
            for i in "${!publishers[@]}"; do
                fleet_round "${publishers[$(( (i + round - 1) % ${#publishers[@]} ))]}" "$set" "$round"
            done
        done
    done
    stop_mosquitto >/dev/null 2>&1 || true
    BROKER_STARTED=""
    rate() { awk -v t="$2" -v ms="$1" 'BEGIN { if (ms + 0 == 0) print "–"; else printf "%.0f", t / (ms / 1000) }'; }
    echo "**C4. Long-running stations against \`mosquitto_pub -q 1 -l\`, into one private mosquitto on 127.0.0.1**"
    echo "(time from starting the publishers until a QoS 1 subscriber has every record; $FLEET_ROUNDS rounds per set,"
    echo "the publishers taking turns at going first; records of ≈ 190 bytes; \`fleet forward\` runs until stopped)."
    echo
    echo "| set | publisher per station | ms for all records | records/s (median) | peak RSS per process MiB | throughput vs mosquitto_pub | note |"
    echo "|---|---|---|---|---|---|---|"
    for set in one many; do
        if [ "$set" = one ]; then label="1 station × $ONE_RECORDS"; total="$ONE_RECORDS"
        else label="$STATIONS stations × $RECORDS"; total=$((STATIONS * RECORDS)); fi
        ms_n="$(median "$RUN/nfctap-$set.ms" 2>/dev/null || true)"; ms_p="$(median "$RUN/pub-$set.ms" 2>/dev/null || true)"
        echo "| $label | \`nfctap fleet forward FILE --publish mqtt://…\` | $(summary "$RUN/nfctap-$set.ms") | $(rate "$ms_n" "$total") | $(summary "$RUN/nfctap-$set.rss") | $(ratio "$ms_p" "$ms_n") | record file as outbox; $(fails "nfctap-$set") |"
        if [ -n "$BASELINE" ]; then
            ms_b="$(median "$RUN/baseline-$set.ms" 2>/dev/null || true)"
            echo "| $label | the same, baseline \`$(basename "$BASELINE")\` | $(summary "$RUN/baseline-$set.ms") | $(rate "$ms_b" "$total") | $(summary "$RUN/baseline-$set.rss") | $(ratio "$ms_p" "$ms_b") | BENCH_FLEET_BASELINE, in the same rounds; $(fails "baseline-$set") |"
        fi
        echo "| $label | \`mosquitto_pub -q 1 -l\` | $(summary "$RUN/pub-$set.ms") | $(rate "$ms_p" "$total") | $(summary "$RUN/pub-$set.rss") | 1.00× | the broker's own client; $(fails "pub-$set") |"
    done
    echo
else
    echo "**C4. Fleet**: not run (mosquitto, mosquitto_pub or mosquitto_sub missing)."
    echo
fi

# ---- budgets: each figure beside its budget, met or NOT met; a benchmark, not a test: nothing fails here ----
# budget_row MEASURE COMMAND FIGURE BUDGET-TEXT EXPRESSION: EXPRESSION (awk) is true when met.
budget_row() {
    local verdict="not measured"
    [ -n "$3" ] && verdict="$(awk "BEGIN { print ($5) ? \"met\" : \"NOT met\" }")"
    echo "| $1 | $2 | ${3:-–} | $4 | $verdict |"
}
# quotient A B: A / B with two decimals ("" when either is missing or B is 0).
quotient() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print ""; else printf "%.2f", a / b }'; }
larger() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "") print b; else if (b == "" || a + 0 >= b + 0) print a; else print b }'; }
v_ms="$(median "$RUN/version-nfctap.ms" 2>/dev/null || true)"
s0="$(median "$RUN/scan-0.ms" 2>/dev/null || true)"; m0="$(median "$RUN/mfu-0.ms" 2>/dev/null || true)"
s5="$(median "$RUN/scan-5.ms" 2>/dev/null || true)"; m5="$(median "$RUN/mfu-5.ms" 2>/dev/null || true)"
scan_rss="$(larger "$(median "$RUN/scan-0.rss" 2>/dev/null || true)" "$(median "$RUN/scan-5.rss" 2>/dev/null || true)")"
station_rss="$(larger "$(median "$RUN/nfctap-one.rss" 2>/dev/null || true)" "$(median "$RUN/nfctap-many.rss" 2>/dev/null || true)")"
pub_one="$(median "$RUN/pub-one.ms" 2>/dev/null || true)"; nf_one="$(median "$RUN/nfctap-one.ms" 2>/dev/null || true)"
pub_many="$(median "$RUN/pub-many.ms" 2>/dev/null || true)"; nf_many="$(median "$RUN/nfctap-many.ms" 2>/dev/null || true)"
# Throughput ratio = mosquitto_pub's time ÷ nfctap's (the same records): ≥ 0.9 is met.
one_ratio="$(quotient "$pub_one" "$nf_one")"; many_ratio="$(quotient "$pub_many" "$nf_many")"
echo "**Budgets** (each figure is a median above; measured on this machine in this run, peers beside nfctap)"
echo
echo "| measure | command (against) | figure | budget | |"
echo "|---|---|---|---|---|"
# one NUMBER: the number with one decimal, for the table ("" stays ""); the verdicts use the
# unrounded figures.
one() { [ -n "$1" ] && awk -v n="$1" 'BEGIN { printf "%.1f", n }' || true; }
q0="$(quotient "$s0" "$m0")"; q5="$(quotient "$s5" "$m5")"
budget_row "start-up, ms" "\`nfctap --version\`" "$(one "$v_ms")" "≤ 15 ms" "$v_ms <= 15"
budget_row "one tap at 0 ms/exchange, ÷ the C tool's" "\`nfctap scan --json\` ($(one "$s0") ms) against \`nfc-mfultralight r\` ($(one "$m0") ms)" "$q0" "≤ 1.15×" "$s0 <= 1.15 * $m0"
budget_row "one tap at 5 ms/exchange, ÷ the C tool's" "\`nfctap scan --json\` ($(one "$s5") ms) against \`nfc-mfultralight r\` ($(one "$m5") ms)" "$q5" "≤ 0.7×" "$s5 <= 0.7 * $m5"
c0="$(median "$RUN/cdump-0.ms" 2>/dev/null || true)"; f0="$(median "$RUN/mfc-0.ms" 2>/dev/null || true)"
c5="$(median "$RUN/cdump-5.ms" 2>/dev/null || true)"; f5="$(median "$RUN/mfc-5.ms" 2>/dev/null || true)"
budget_row "a Classic 1K's whole card at 0 ms/exchange, ÷ the C tool's" "\`nfctap dump --json\` ($(one "$c0") ms) against \`nfc-mfclassic r a u\` ($(one "$f0") ms)" "$(quotient "$c0" "$f0")" "≤ 1.3×" "$c0 <= 1.3 * $f0"
budget_row "the same at 5 ms/exchange" "\`nfctap dump --json\` ($(one "$c5") ms) against \`nfc-mfclassic r a u\` ($(one "$f5") ms)" "$(quotient "$c5" "$f5")" "≤ 1.25×" "$c5 <= 1.25 * $f5"
budget_row "peak RSS, MiB" "\`nfctap scan --json\` (the larger of C2's two medians)" "$(one "$scan_rss")" "≤ 14 MiB" "$scan_rss <= 14"
budget_row "peak RSS of a station, MiB" "\`nfctap fleet forward\` (the larger of C4's two medians)" "$(one "$station_rss")" "≤ 16 MiB" "$station_rss <= 16"
budget_row "throughput of one station, $ONE_RECORDS records, ÷ mosquitto_pub's" "one \`nfctap fleet forward\` against one \`mosquitto_pub -q 1 -l\`" "$one_ratio" "≥ 0.9×" "$pub_one >= 0.9 * $nf_one"
budget_row "throughput of $STATIONS stations × $RECORDS records, ÷ mosquitto_pub's" "$STATIONS \`nfctap fleet forward\` against $STATIONS \`mosquitto_pub -q 1 -l\`" "$many_ratio" "≥ 0.9×" "$pub_many >= 0.9 * $nf_many"
echo
