#!/usr/bin/env bash
# Benchmarks through the real drivers (scripts/bench.sh section 6; docs/benchmarks.md), as
# Markdown on stdout: pcscd 1.9.9 + libccid over readers emulated at the USB boundary.
#
#   scripts/usb-reader-emulator/bench-real-drivers.sh NFCTAP-BINARY [ROUNDS]
#
# Runs itself in a private network + mount namespace (as scripts/test.sh does), starts the ring-4
# services (scripts/services/usbreaders.sh) and measures:
#   a. tap → printed output on the ACR122U, median and p90: `nfctap scan --json` vs a
#      straightforward pyscard reader (pyscard-read.py), same emulated reader, same tag;
#   b. idle CPU over 10 s of `nfctap scan` and `nfctap kiosk` waiting, and of pcscd and the emulator;
#   c. CCID exchanges (XfrBlock) of one `nfctap scan` per profile and tag type.
set -euo pipefail
cd "$(dirname "$0")/../.."
NFCTAP="${1:?usage: bench-real-drivers.sh NFCTAP-BINARY [ROUNDS]}"
ROUNDS="${2:-15}"

if [ "${NFCTAP_BENCH_INNER:-}" != 1 ]; then
    if [ "$(id -u)" -eq 0 ]; then ns=(unshare --net --mount --propagation private); else ns=(unshare --user --map-root-user --net --mount --propagation private); fi
    NFCTAP_BENCH_INNER=1 exec "${ns[@]}" -- "$0" "$NFCTAP" "$ROUNDS"
fi

ip link set lo up
if [ -d /run/pcscd ]; then mount -t tmpfs tmpfs /run/pcscd; fi
. scripts/lib.sh
NFCTAP_TEST_RUN_DIR="$(mktemp -d /tmp/nfctap-bench-usb.XXXXXX)"
export NFCTAP_TEST_RUN_DIR
. scripts/services/usbreaders.sh
CARD_PIDS=()
finish() {
    for p in "${CARD_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    stop_usbreaders >/dev/null 2>&1 || true
    rm -rf "$NFCTAP_TEST_RUN_DIR"
}
trap finish EXIT
start_usbreaders 2>/dev/null
"$NFCTAP_USB_CTL" wait-readers 5
export PCSCLITE_CSOCK_NAME="$NFCTAP_USB_PCSCD_SOCKET"
HZ="$(getconf CLK_TCK)"
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
percent() { awk -v t="$1" -v s="$2" -v hz="$HZ" 'BEGIN { printf "%.2f %%", 100 * t / hz / s }'; }
emulator_pid="$(cat "$NFCTAP_USB_DIR/emulator.pid")"
pcscd_pid="$(cat "$NFCTAP_USB_DIR/pcscd.pid")"

# The card: the project's virtual NTAG213 (nfctap emulate), connected to the ACR122U's card port.
"$NFCTAP" emulate --vpcd "127.0.0.1:$NFCTAP_USB_CARD_PORT" --profile acr122u --preset ntag213 2>/dev/null &
CARD_PIDS+=($!)
sleep 1

echo "**a. Tap → printed output, ACR122U through pcscd + libccid** ($ROUNDS taps each; the card enters the field by a NotifySlotChange on the interrupt endpoint)"
echo
echo "| reader program | median | p90 | what it reads |"
echo "|---|---|---|---|"
nfctap_row="$(/usr/bin/python3 scripts/usb-reader-emulator/bench-tap.py "$ROUNDS" "$NFCTAP_USB_CONTROL" acr122u ACR122U "Hold a tag near" -- \
    "$NFCTAP" scan --json --timeout 30 --reader ACR122U)"
pyscard_row="$(/usr/bin/python3 scripts/usb-reader-emulator/bench-tap.py "$ROUNDS" "$NFCTAP_USB_CONTROL" acr122u ACR122U "waiting for a card" -- \
    /usr/bin/python3 scripts/usb-reader-emulator/pyscard-read.py ACR122U)"
f() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$1"; }
echo "| \`nfctap scan --json\` | $(f "$nfctap_row" median) ms | $(f "$nfctap_row" p90) ms | UID, firmware string, GET_VERSION + FAST_READ through the PN532, NDEF decoded; LED/buzzer feedback |"
echo "| pyscard, straightforward (\`pyscard-read.py\`) | $(f "$pyscard_row" median) ms | $(f "$pyscard_row" p90) ms | UID, READ BINARY 16 bytes at a time to the TLV end; no checks, no feedback |"
echo
"$NFCTAP_USB_CTL" emu show acr122u >/dev/null

echo "**b. Idle CPU over 10 s, no tag** (a reader waiting; \`ps\`-style share of one core)"
echo
echo "| waiting process | its CPU | pcscd | emulator |"
echo "|---|---|---|---|"
idle_row() {
    local label="$1"; shift
    "$@" >/dev/null 2>&1 &
    local pid=$!
    sleep 2
    local a b c
    a="$(ticks "$pid")"; b="$(ticks "$pcscd_pid")"; c="$(ticks "$emulator_pid")"
    sleep 10
    echo "| $label | $(percent "$(( $(ticks "$pid") - a ))" 10) | $(percent "$(( $(ticks "$pcscd_pid") - b ))" 10) | $(percent "$(( $(ticks "$emulator_pid") - c ))" 10) |"
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
kill "${CARD_PIDS[@]}" 2>/dev/null || true; CARD_PIDS=()
sleep 1
idle_row "(nothing: 5 readers plugged, pcscd idle)" sleep 12
idle_row "\`nfctap scan --timeout 0 --reader ACR122U\`" "$NFCTAP" scan --timeout 0 --reader ACR122U
config="$NFCTAP_TEST_RUN_DIR/kiosk.json"
printf '{"action": "json", "output": "%s", "backends": {"pcsc": true, "libnfc": []}}\n' "$NFCTAP_TEST_RUN_DIR/kiosk.jsonl" >"$config"
idle_row "\`nfctap kiosk\` (all 5 readers)" "$NFCTAP" kiosk --config "$config"
echo

echo "**c. CCID exchanges of one \`nfctap scan\`** (XfrBlock messages on the bulk endpoints, counted by the emulator; nfctap's own \`--trace\` count in brackets)"
echo
echo "| reader (libccid name) | NTAG213 | Type 4 (v2) |"
echo "|---|---|---|"
port="$NFCTAP_USB_CARD_PORT"
for spec in "acr122u:acr122u:ACR122U:0" "acr1252u:acr1252u:ACR1252 Dual Reader PICC:1" "omnikey5022:omnikey:OMNIKEY 5022:2" "utrust3700f:identiv:uTrust 3700 F:3"; do
    IFS=: read -r key personality match offset <<<"$spec"
    cells=()
    for preset in ntag213 type4; do
        "$NFCTAP_USB_CTL" emu reset-counts "$key" >/dev/null
        "$NFCTAP" emulate --vpcd "127.0.0.1:$((port + offset))" --profile "$personality" --preset "$preset" 2>/dev/null &
        card=$!
        out="$("$NFCTAP" scan --json --trace --timeout 20 --reader "$match" 2>"$NFCTAP_TEST_RUN_DIR/trace" || true)"
        kill "$card" 2>/dev/null; wait "$card" 2>/dev/null || true
        xfr="$("$NFCTAP_USB_CTL" emu counts "$key" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("XfrBlock", 0))')"
        apdus="$(grep -c '^nfctap trace: >' "$NFCTAP_TEST_RUN_DIR/trace" || true)"
        [ -n "$out" ] && cells+=("$xfr ($apdus APDUs traced)") || cells+=("failed")
        sleep 0.5
    done
    name="$(PCSCLITE_CSOCK_NAME="$NFCTAP_USB_PCSCD_SOCKET" "$NFCTAP" readers 2>/dev/null | grep -F "$match" | head -n 1 | cut -f1)"
    echo "| ${name:-$match} | ${cells[0]} | ${cells[1]} |"
done
echo
