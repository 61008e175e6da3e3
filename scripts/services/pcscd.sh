# Ring 3: a private pcscd with the vsmartcard vpcd driver. Sourced by scripts/test.sh.
#
# pcscd listens on a socket in the test run directory, not /run/pcscd/pcscd.comm, so a pcscd the
# machine already runs is not disturbed: PCSCLITE_CSOCK_NAME (read by libpcsclite 1.9.9) points
# the tests and the CLI at it. vpcd's readers `Virtual PCD 00 00` / `00 01` listen on
# 127.0.0.1:$NFCTAP_VPCD_PORT and +1 (35963/35964 unless set); those ports are machine-wide.
# Tests take pcscd away and back with "$NFCTAP_PCSCD_CTL" kill|start|restart.

start_pcscd() {
    export NFCTAP_PCSCD_DIR="$NFCTAP_TEST_RUN_DIR/pcscd"
    export PCSCLITE_CSOCK_NAME="$NFCTAP_PCSCD_DIR/pcscd.comm"
    export NFCTAP_VPCD_PORT="${NFCTAP_VPCD_PORT:-35963}"
    export NFCTAP_PCSCD_LOG="$NFCTAP_TEST_RUN_DIR/pcscd.log"
    export NFCTAP_PCSCD_CTL="$PWD/scripts/services/pcscd-ctl"
    mkdir -p "$NFCTAP_PCSCD_DIR/reader.conf.d"
    if [ ! -r /etc/reader.conf.d/vpcd ]; then
        log "pcscd: /etc/reader.conf.d/vpcd is missing: install vsmartcard-vpcd"
        return 1
    fi
    # A private reader.conf.d with only vpcd, on the chosen port (vpcd: DEVICENAME /dev/null:PORT).
    local hexport; hexport="$(printf '0x%X' "$NFCTAP_VPCD_PORT")"
    sed -E "s/0x8C7B/$hexport/g" /etc/reader.conf.d/vpcd >"$NFCTAP_PCSCD_DIR/reader.conf.d/vpcd"
    "$NFCTAP_PCSCD_CTL" start
    log "pcscd: pid $(cat "$NFCTAP_PCSCD_DIR/pcscd.pid"), socket $PCSCLITE_CSOCK_NAME, vpcd on 127.0.0.1:$NFCTAP_VPCD_PORT, log $NFCTAP_PCSCD_LOG"
    export NFCTAP_SERVICE_PCSCD=1
}

stop_pcscd() {
    [ -n "${NFCTAP_PCSCD_DIR:-}" ] || return 0
    "$NFCTAP_PCSCD_CTL" stop
}
