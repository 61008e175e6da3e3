#!/usr/bin/env bash
# Controls the test pcscd started by scripts/services/pcscd.sh: start | stop | kill | restart | status.
# Ring 3 tests run it to take pcscd away and bring it back (`kill` = SIGKILL, as a crash).
# Needs the environment start_pcscd exports: NFCTAP_PCSCD_DIR, PCSCLITE_CSOCK_NAME, NFCTAP_VPCD_PORT.
set -euo pipefail

dir="${NFCTAP_PCSCD_DIR:?NFCTAP_PCSCD_DIR is not set: source scripts/services/pcscd.sh and run start_pcscd}"
sock="${PCSCLITE_CSOCK_NAME:?PCSCLITE_CSOCK_NAME is not set}"
port="${NFCTAP_VPCD_PORT:-35963}"
here="$(cd "$(dirname "$0")" && pwd)"
pidfile="$dir/pcscd.pid"
log="${NFCTAP_PCSCD_LOG:-$dir/pcscd.log}"

# One action at a time: concurrent starts would race for the socket and the vpcd ports.
exec 9>"$dir/ctl.lock"
flock 9

say() { printf 'pcscd-ctl: %s\n' "$*" >&2; }

pid() { [ -s "$pidfile" ] && cat "$pidfile" || true; }

# Alive = the process exists and is not a zombie.
alive() {
    local p="$1" state
    [ -n "$p" ] && [ -r "/proc/$p/stat" ] || return 1
    state="$(sed 's/^.*) //' "/proc/$p/stat" | cut -d' ' -f1)"
    [ "$state" != "Z" ]
}

listening() { [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; }

# Waits up to $2 tenths of a second for the process to end.
wait_gone() {
    local p="$1" i
    for i in $(seq 1 "${2:-50}"); do alive "$p" || return 0; sleep 0.1; done
    return 1
}

start() {
    local p; p="$(pid)"
    if alive "$p"; then return 0; fi
    if listening "$port"; then
        say "TCP port $port is taken (another pcscd with vpcd?); stop it or set NFCTAP_VPCD_PORT"
        return 1
    fi
    # setsid: pcscd must not get the test runner's Ctrl-C or share its process group.
    setsid /usr/bin/python3 "$here/pcscd-launch.py" "$sock" -- \
        pcscd --foreground --info --config "$dir/reader.conf.d" >>"$log" 2>&1 </dev/null 9>&- &
    echo $! >"$pidfile"
    p=$!
    # Ready when vpcd (loaded before pcscd serves clients) listens on 127.0.0.1:port.
    local i
    for i in $(seq 1 200); do
        if ! alive "$p"; then say "pcscd exited at start; see $log"; tail -n 20 "$log" >&2; return 1; fi
        if listening "$port" && listening "$((port + 1))"; then return 0; fi
        sleep 0.05
    done
    say "vpcd did not listen on port $port within 10 s; see $log"
    return 1
}

stop() {
    local p; p="$(pid)"
    alive "$p" || { rm -f "$pidfile"; return 0; }
    # pcscd 1.9.9 can take seconds to leave on SIGTERM (vpcd closes its channels slowly): 2 s, then KILL.
    kill -TERM "$p" 2>/dev/null || true
    wait_gone "$p" 20 || { kill -KILL "$p" 2>/dev/null || true; wait_gone "$p"; }
    rm -f "$pidfile"
}

crash() {
    local p; p="$(pid)"
    alive "$p" || return 0
    kill -KILL "$p"
    wait_gone "$p"
    rm -f "$pidfile"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    kill) crash ;;
    restart) stop; start ;;
    status) alive "$(pid)" && echo running || { echo stopped; exit 1; } ;;
    *) echo "usage: $0 start|stop|kill|restart|status" >&2; exit 64 ;;
esac
