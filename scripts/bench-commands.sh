#!/usr/bin/env bash
# Whole command against whole command: what a user or a script runs, one process per tap, start-up
# included, every peer on the SAME emulated device and tag, interleaved in one invocation (run i of
# every peer before run i+1 of any) so each ratio is a paired one. Markdown on stdout, progress on
# stderr. Part of scripts/bench.sh; runs alone too:
#
#   scripts/bench-commands.sh            # 15 runs per peer and setting
#   scripts/bench-commands.sh --quick    # 5 runs, a short fleet round (what CI prints)
#
# Sections: C1 start-up; C2 one tap of an NTAG213 on the emulated PN532 (libnfc pn532_uart) at 0
# and 5 ms per tag exchange: nfctap scan --json, nfc-mfultralight r, an nfcpy program; C3 peak
# memory; C4 fleet stations as processes vs mosquitto_pub -q 1 into one private broker; then the
# goals table (issue 26). Figures: median and the p10–p90 spread over the runs. Every peer's
# program is first dropped from the page cache and run once unmeasured (see page_cache_drop), and
# only the peers' own work is timed (C4's outbox copies are made before the clock starts).
#
# The nfctap measured is the release build the Debian package ships (NFCTAP_BIN overrides it).
# Needs root only for nfcpy's /dev/ttyUSB<n> link (removed on exit) and the network namespace
# that keeps the broker on loopback. Environment: BENCH_CMD_RUNS, BENCH_FLEET_STATIONS (50),
# BENCH_FLEET_RECORDS (records per station, 400), BENCH_FLEET_ROUNDS (9 with --quick, else 15),
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
STATIONS="${BENCH_FLEET_STATIONS:-50}"
RECORDS="${BENCH_FLEET_RECORDS:-$([ "$QUICK" = 1 ] && echo 100 || echo 400)}"

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
    "$RUN/nfctap-emulator" emulate --pn532-pty --preset ntag213 --latency "$1" >"$RUN/serve.out" 2>"$RUN/serve.err" &
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
# at 11.1 MiB once its pages have been read back from disk (docs/architecture.md "Start-up").
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

# ---- C4: fleet stations as processes vs mosquitto_pub -q 1 ----
fleet_ms_nfctap=""; fleet_ms_pub=""; station_rss=""
if command -v mosquitto >/dev/null && command -v mosquitto_pub >/dev/null && command -v mosquitto_sub >/dev/null; then
    log "C4: $STATIONS station processes × $RECORDS records"
    export NFCTAP_TEST_RUN_DIR="$RUN/broker"
    mkdir -p "$NFCTAP_TEST_RUN_DIR"
    . scripts/services/mosquitto.sh
    start_mosquitto >"$RUN/broker.log" 2>&1 && BROKER_STARTED=1
    port="$NFCTAP_MOSQUITTO_PORT"
    total=$((STATIONS * RECORDS))
    mkdir -p "$RUN/fleet"
    for s in $(seq 1 "$STATIONS"); do
        awk -v n="$RECORDS" -v s="$s" 'BEGIN { for (i = 1; i <= n; i++) printf "{\"seq\":%d,\"time\":\"2026-11-25T03:00:00.000Z\",\"uid\":\"04A1B2C3D4E5%02X\",\"type\":\"ntag213\",\"product\":\"NTAG213\",\"reader\":\"Bench Reader 00 00\",\"summary\":\"https://example.com/asset/%d\",\"duplicate\":false}\n", i, s % 256, i }' >"$RUN/fleet/records-$s.jsonl"
    done
    # fleet_round NAME: $STATIONS publisher processes started at once; the time until a QoS 1
    # subscriber has every record. Appends ms to $RUN/NAME.ms, per-process peak RSS to $RUN/NAME.rss.
    fleet_round() {
        local name="$1" round="$2"
        rm -f "$RUN/sub.ready"
        mosquitto_sub -h 127.0.0.1 -p "$port" -q 1 -t "bench/$name/$round/#" -C "$total" -W 120 >/dev/null 2>"$RUN/sub.err" &
        local sub=$!
        sleep 0.3   # the subscription is in place before the first publish
        local t0 t1 pids=() s
        # Each forwarder's outbox is a fresh copy of its records, made before the clock starts:
        # mosquitto_pub reads the same file, and copying is neither peer's work.
        local forwarder="$NFCTAP"
        [ "$name" = baseline ] && forwarder="$BASELINE"
        if [ "$name" != pub ]; then
            for s in $(seq 1 "$STATIONS"); do cp "$RUN/fleet/records-$s.jsonl" "$RUN/fleet/outbox-$name-$round-$s.jsonl"; done
        fi
        t0="$(date +%s%N)"
        for s in $(seq 1 "$STATIONS"); do
            if [ "$name" != pub ]; then
                /usr/bin/time -f '%M' -o "$RUN/fleet/rss-$round-$s" \
                    "$forwarder" fleet forward "$RUN/fleet/outbox-$name-$round-$s.jsonl" --publish "mqtt://127.0.0.1:$port/bench/$name/$round/s$s" \
                    >/dev/null 2>"$RUN/fleet/err-$round-$s" &
            else
                /usr/bin/time -f '%M' -o "$RUN/fleet/rss-$round-$s" \
                    mosquitto_pub -h 127.0.0.1 -p "$port" -q 1 -t "bench/$name/$round/s$s" -l <"$RUN/fleet/records-$s.jsonl" \
                    >/dev/null 2>"$RUN/fleet/err-$round-$s" &
            fi
            pids+=($!)
        done
        local status=0
        wait "$sub" || status=$?
        t1="$(date +%s%N)"
        # The forwarders run until stopped; mosquitto_pub ends at the end of its input.
        if [ "$name" != pub ]; then for p in "${pids[@]}"; do pkill -TERM -P "$p" 2>/dev/null || true; done; fi
        wait "${pids[@]}" 2>/dev/null || true
        if [ "$status" -ne 0 ]; then
            echo "round $round: the subscriber did not get all $total records ($(cat "$RUN/sub.err"))" >>"$RUN/$name-fleet.fail"
            return 0
        fi
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' >>"$RUN/$name-fleet.ms"
        for s in $(seq 1 "$STATIONS"); do awk '/^[0-9]+$/ { printf "%.2f\n", $1 / 1024 }' "$RUN/fleet/rss-$round-$s" | tail -n 1; done >>"$RUN/$name-fleet.rss"
    }
    # 50 processes on 2 cores: two rounds gave 0.93× and 1.06× for the same binary, and the median
    # of 5 still moved by ±0.1 between runs (0.88×–1.09× for one build), so even the short run takes
    # the median of 9 (a round of the three publishers is about a second).
    fleet_rounds="${BENCH_FLEET_ROUNDS:-$([ "$QUICK" = 1 ] && echo 9 || echo 15)}"
    # The publishers take turns at going first: in a fixed order the first of a round was the
    # slowest whatever it was (two builds swapped between runs: 244–263 ms first, 233–247 second,
    # mosquitto_pub 225–229 third), which counted against nfctap in every ratio.
    publishers=(nfctap)
    [ -n "$BASELINE" ] && publishers+=(baseline)
    publishers+=(pub)
    for round in $(seq 1 "$fleet_rounds"); do
        for i in "${!publishers[@]}"; do
            fleet_round "${publishers[$(( (i + round - 1) % ${#publishers[@]} ))]}" "$round"
        done
    done
    stop_mosquitto >/dev/null 2>&1 || true
    BROKER_STARTED=""
    rate() { awk -v t="$total" -v ms="$1" 'BEGIN { if (ms + 0 == 0) print "–"; else printf "%.0f", t / (ms / 1000) }'; }
    fleet_ms_nfctap="$(median "$RUN/nfctap-fleet.ms" 2>/dev/null || true)"
    fleet_ms_pub="$(median "$RUN/pub-fleet.ms" 2>/dev/null || true)"
    station_rss="$(median "$RUN/nfctap-fleet.rss" 2>/dev/null || true)"
    echo "**C4. $STATIONS stations = $STATIONS processes, $RECORDS records each, into one private mosquitto on 127.0.0.1**"
    echo "(time from starting the publishers until a QoS 1 subscriber has all $total records; $fleet_rounds rounds, the publishers taking turns at going first)."
    echo
    echo "| publisher per station | ms for all records | records/s (median) | peak RSS per process MiB | throughput vs mosquitto_pub | note |"
    echo "|---|---|---|---|---|---|"
    echo "| \`nfctap fleet forward FILE --publish mqtt://…\` | $(summary "$RUN/nfctap-fleet.ms") | $(rate "$fleet_ms_nfctap") | $(summary "$RUN/nfctap-fleet.rss") | $(ratio "$fleet_ms_pub" "$fleet_ms_nfctap") | record file as outbox; $(fails nfctap-fleet) |"
    if [ -n "$BASELINE" ]; then
        echo "| the same, baseline \`$(basename "$BASELINE")\` | $(summary "$RUN/baseline-fleet.ms") | $(rate "$(median "$RUN/baseline-fleet.ms" 2>/dev/null || true)") | $(summary "$RUN/baseline-fleet.rss") | $(ratio "$fleet_ms_pub" "$(median "$RUN/baseline-fleet.ms" 2>/dev/null || true)") | BENCH_FLEET_BASELINE, in the same rounds; $(fails baseline-fleet) |"
    fi
    echo "| \`mosquitto_pub -q 1 -l\` | $(summary "$RUN/pub-fleet.ms") | $(rate "$fleet_ms_pub") | $(summary "$RUN/pub-fleet.rss") | 1.00× | the broker's own client; $(fails pub-fleet) |"
    echo
else
    echo "**C4. Fleet**: not run (mosquitto, mosquitto_pub or mosquitto_sub missing)."
    echo
fi

# ---- goals (issue 26): figures beside them; a benchmark, not a test: nothing fails here ----
goal_row() {  # what figure goal-text verdict-expression
    local verdict="–"
    [ -n "$2" ] && verdict="$(awk "BEGIN { print ($4) ? \"met\" : \"not met\" }")"
    echo "| $1 | ${2:-–} | $3 | $verdict |"
}
v_ms="$(median "$RUN/version-nfctap.ms" 2>/dev/null || true)"
s0="$(median "$RUN/scan-0.ms" 2>/dev/null || true)"; m0="$(median "$RUN/mfu-0.ms" 2>/dev/null || true)"
s5="$(median "$RUN/scan-5.ms" 2>/dev/null || true)"; m5="$(median "$RUN/mfu-5.ms" 2>/dev/null || true)"
scan_rss="$(median "$RUN/scan-0.rss" 2>/dev/null || true)"
echo "**Goals** (each figure is a median above)"
echo
echo "| measure | figure | goal | |"
echo "|---|---|---|---|"
goal_row "\`nfctap --version\`, ms" "$v_ms" "≤ 8" "${v_ms:-99} <= 8"
goal_row "\`scan --json\` at 0 ms/exchange, ms (nfc-mfultralight: ${m0:-–})" "$s0" "≤ nfc-mfultralight" "${s0:-1} <= ${m0:-0}"
goal_row "\`scan --json\` at 5 ms/exchange, ms (nfc-mfultralight: ${m5:-–})" "$s5" "< nfc-mfultralight" "${s5:-1} < ${m5:-0}"
goal_row "peak RSS of \`scan\`, MiB" "$scan_rss" "≤ 14" "${scan_rss:-99} <= 14"
goal_row "peak RSS of a \`fleet forward\` station, MiB" "$station_rss" "≤ 12" "${station_rss:-99} <= 12"
fleet_ratio=""
[ -n "$fleet_ms_nfctap" ] && [ -n "$fleet_ms_pub" ] && fleet_ratio="$(awk -v a="$fleet_ms_pub" -v b="$fleet_ms_nfctap" 'BEGIN { printf "%.2f", a / b }')"
goal_row "$STATIONS station processes, throughput ÷ mosquitto_pub's" "$fleet_ratio" "≥ 0.9" "${fleet_ratio:-0} >= 0.9"
echo
