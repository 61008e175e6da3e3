# Ring 4 (real drivers): readers emulated at the USB boundary, driven by an unmodified pcscd +
# libccid and by libnfc's USB drivers (docs/architecture.md "Tests, in four rings", docs/tags-and-readers.md §5).
# Sourced by scripts/test.sh.
#
# start_usbreaders starts scripts/usb-reader-emulator (umockdev's fake sysfs/udev and an ioctl
# handler: nothing is added to the machine) with an ACR122U, an ACR1252U, an OMNIKEY 5022, a
# uTrust 3700 F and an SCL3711, then a second pcscd under umockdev's preload. That pcscd is private
# like the vpcd one (its own socket, an empty reader.conf.d, the namespace's /run/pcscd) and sees
# only the emulated readers. Tests reach it with PCSCLITE_CSOCK_NAME=$NFCTAP_USB_PCSCD_SOCKET and
# run libnfc programs with $NFCTAP_USB_PRELOAD_ENV; "$NFCTAP_USB_CTL" controls both (see its usage).

start_usbreaders() {
    export NFCTAP_USB_DIR="$NFCTAP_TEST_RUN_DIR/usb"
    export NFCTAP_USB_CTL="$PWD/scripts/services/usbreaders-ctl"
    export NFCTAP_USB_CARD_PORT="${NFCTAP_USB_CARD_PORT:-35980}"
    mkdir -p "$NFCTAP_USB_DIR"
    "$NFCTAP_USB_CTL" start || return 1
    # shellcheck disable=SC1091
    . "$NFCTAP_USB_DIR/env"
    export NFCTAP_USB_UMOCKDEV_DIR NFCTAP_USB_CONTROL NFCTAP_USB_PCSCD_SOCKET
    log "USB readers: emulator pid $(cat "$NFCTAP_USB_DIR/emulator.pid"), pcscd pid $(cat "$NFCTAP_USB_DIR/pcscd.pid"), socket $NFCTAP_USB_PCSCD_SOCKET"
    export NFCTAP_SERVICE_USBREADERS=1
}

stop_usbreaders() {
    [ -n "${NFCTAP_USB_DIR:-}" ] || return 0
    "$NFCTAP_USB_CTL" stop
    unset NFCTAP_SERVICE_USBREADERS
}
