# A private D-Bus for the BlueZ system tests (sourced by scripts/test.sh).
# start_dbus starts `dbus-daemon --session` (forked, pid tracked), exports its address as
# NFCTAP_TEST_DBUS_ADDRESS and NFCTAP_SERVICE_DBUS=1; each test then runs its own
# python3-dbusmock bluez5 mock on it. stop_dbus stops exactly that daemon.

NFCTAP_DBUS_PID=""

start_dbus() {
    local out
    out="$(dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1)" || {
        log "dbus-daemon did not start"; return 1; }
    NFCTAP_TEST_DBUS_ADDRESS="$(printf '%s\n' "$out" | sed -n 1p)"
    NFCTAP_DBUS_PID="$(printf '%s\n' "$out" | sed -n 2p)"
    [ -n "$NFCTAP_TEST_DBUS_ADDRESS" ] && [ -n "$NFCTAP_DBUS_PID" ] || { log "dbus-daemon printed no address/pid"; return 1; }
    export NFCTAP_TEST_DBUS_ADDRESS
    export NFCTAP_SERVICE_DBUS=1
    log "private D-Bus at $NFCTAP_TEST_DBUS_ADDRESS (pid $NFCTAP_DBUS_PID)"
}

stop_dbus() {
    [ -n "$NFCTAP_DBUS_PID" ] || return 0
    kill "$NFCTAP_DBUS_PID" 2>/dev/null || true
    # Not our child (it forked): poll until it is gone, at most ~2 s.
    local i
    for i in $(seq 1 20); do
        kill -0 "$NFCTAP_DBUS_PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$NFCTAP_DBUS_PID" 2>/dev/null && kill -9 "$NFCTAP_DBUS_PID" 2>/dev/null
    log "stopped private D-Bus (pid $NFCTAP_DBUS_PID)"
    NFCTAP_DBUS_PID=""
    unset NFCTAP_TEST_DBUS_ADDRESS NFCTAP_SERVICE_DBUS
}
