# libnfc for the system ring: nothing to start (the tests run the project's PN532 emulator on
# a pseudo-terminal); only check that libnfc's tools are installed. Sourced by scripts/test.sh.

start_libnfc() {
    if ! command -v nfc-list >/dev/null 2>&1; then
        log "libnfc tools missing (nfc-list): install libnfc-bin"
        return 1
    fi
    export NFCTAP_SERVICE_LIBNFC=1
}

stop_libnfc() {
    unset NFCTAP_SERVICE_LIBNFC
}
