# Ring 3: a private pcscd with the vsmartcard vpcd driver. Sourced by scripts/test.sh.
#
# Private in three ways, so the machine is left as found and a pcscd of the machine is not disturbed:
# - its reader configuration: a reader.conf.d in the test run directory naming only vpcd, with the
#   driver ensure_vpcd_driver found (nothing is written to /etc/reader.conf.d);
# - its socket: pcscd listens in the test run directory, not /run/pcscd/pcscd.comm;
#   PCSCLITE_CSOCK_NAME (read by libpcsclite 1.9.9) points the tests and the CLI at it;
# - its network: vpcd's driver binds its ports on every address (INADDR_ANY: DEVICENAME
#   `/dev/null:PORT` names only a port, and any other host name makes vpcd connect out instead of
#   listening), so scripts/test.sh runs the whole ring in a network namespace whose only interface
#   is loopback. The readers `Virtual PCD 00 00` / `00 01` listen on $NFCTAP_VPCD_PORT and +1
#   (35963/35964 unless set) inside it, unreachable from outside, and a pcscd of the machine on the
#   same ports does not collide with them.
# Tests take pcscd away and back with "$NFCTAP_PCSCD_CTL" kill|start|restart.

start_pcscd() {
    export NFCTAP_PCSCD_DIR="$NFCTAP_TEST_RUN_DIR/pcscd"
    export PCSCLITE_CSOCK_NAME="$NFCTAP_PCSCD_DIR/pcscd.comm"
    export NFCTAP_VPCD_PORT="${NFCTAP_VPCD_PORT:-35963}"
    export NFCTAP_PCSCD_LOG="$NFCTAP_TEST_RUN_DIR/pcscd.log"
    export NFCTAP_PCSCD_CTL="$PWD/scripts/services/pcscd-ctl"
    mkdir -p "$NFCTAP_PCSCD_DIR/reader.conf.d"
    local driver
    driver="${NFCTAP_VPCD_DRIVER:-$(ensure_vpcd_driver)}" || return 1
    # reader.conf(5): vpcd's DEVICENAME is /dev/null:PORT (listen on PORT), CHANNELID the same port.
    local hexport; hexport="$(printf '0x%X' "$NFCTAP_VPCD_PORT")"
    cat >"$NFCTAP_PCSCD_DIR/reader.conf.d/vpcd" <<CONF
FRIENDLYNAME "Virtual PCD"
DEVICENAME   /dev/null:$hexport
LIBPATH      $driver
CHANNELID    $hexport
CONF
    if [ "${NFCTAP_PCSCD_OWN_NETNS:-0}" = 1 ]; then
        # Only pcscd in a namespace of its own (clients reach it by its Unix socket, which works
        # across network namespaces; vpcd's TCP ports are then out of everyone's reach): for
        # callers outside scripts/test.sh's namespace that need no virtual card, e.g. scripts/bench.sh.
        unshare --net --mount --propagation private bash -c \
            'ip link set lo up; if [ -d /run/pcscd ]; then mount -t tmpfs tmpfs /run/pcscd; fi; exec "$0" start' \
            "$NFCTAP_PCSCD_CTL"
    else
        "$NFCTAP_PCSCD_CTL" start
    fi
    log "pcscd: pid $(cat "$NFCTAP_PCSCD_DIR/pcscd.pid"), socket $PCSCLITE_CSOCK_NAME, vpcd on port $NFCTAP_VPCD_PORT (private network namespace), log $NFCTAP_PCSCD_LOG"
    export NFCTAP_SERVICE_PCSCD=1
}

stop_pcscd() {
    [ -n "${NFCTAP_PCSCD_DIR:-}" ] || return 0
    "$NFCTAP_PCSCD_CTL" stop
}
