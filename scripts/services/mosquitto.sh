# Ring 3: a private MQTT broker (Eclipse Mosquitto) for the fleet tests. Sourced by scripts/test.sh.
#
# Listens on 127.0.0.1 only, on two free ports: plain MQTT ($NFCTAP_MOSQUITTO_PORT) and TLS
# ($NFCTAP_MOSQUITTO_TLS_PORT) with a server certificate for 127.0.0.1/localhost signed by a test
# CA made here with openssl ($NFCTAP_MOSQUITTO_CA; $NFCTAP_MOSQUITTO_OTHER_CA signed nothing).
# Configuration, persistence, log and keys live in $NFCTAP_TEST_RUN_DIR/mosquitto. Tests stop,
# kill, pause and restart it with "$NFCTAP_MOSQUITTO_CTL" start|stop|kill|pause|resume|restart.

# A TCP port nobody listens on at 127.0.0.1 now.
mosquitto_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_mosquitto() {
    if ! command -v mosquitto >/dev/null 2>&1 || ! command -v openssl >/dev/null 2>&1; then
        log "mosquitto: the broker or openssl is missing: install mosquitto mosquitto-clients openssl"
        return 1
    fi
    export NFCTAP_MOSQUITTO_DIR="$NFCTAP_TEST_RUN_DIR/mosquitto"
    export NFCTAP_MOSQUITTO_CTL="$PWD/scripts/services/mosquitto-ctl"
    local dir="$NFCTAP_MOSQUITTO_DIR"
    mkdir -p "$dir/data"
    chmod 700 "$dir"
    NFCTAP_MOSQUITTO_PORT="$(mosquitto_free_port)"
    NFCTAP_MOSQUITTO_TLS_PORT="$(mosquitto_free_port)"
    while [ "$NFCTAP_MOSQUITTO_TLS_PORT" = "$NFCTAP_MOSQUITTO_PORT" ]; do NFCTAP_MOSQUITTO_TLS_PORT="$(mosquitto_free_port)"; done
    export NFCTAP_MOSQUITTO_PORT NFCTAP_MOSQUITTO_TLS_PORT

    # Test CA, a server certificate it signs (127.0.0.1 and localhost), and a CA that signed nothing.
    (
        cd "$dir"
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=nfctap test CA" \
            -keyout ca.key -out ca.pem 2>/dev/null
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=nfctap other CA" \
            -keyout other-ca.key -out other-ca.pem 2>/dev/null
        openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >server.ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
            -extfile server.ext -out server.pem 2>/dev/null
    ) || { log "mosquitto: openssl could not make the test certificates"; return 1; }
    export NFCTAP_MOSQUITTO_CA="$dir/ca.pem"
    export NFCTAP_MOSQUITTO_OTHER_CA="$dir/other-ca.pem"

    cat >"$dir/mosquitto.conf" <<CONF
# nfctap test broker: loopback only, private directory.
pid_file $dir/mosquitto.pid
user root
persistence true
persistence_location $dir/data/
autosave_interval 1
log_dest file $dir/mosquitto.log
log_type error
log_type warning
log_type notice
allow_anonymous true
max_queued_messages 0
listener $NFCTAP_MOSQUITTO_PORT 127.0.0.1
listener $NFCTAP_MOSQUITTO_TLS_PORT 127.0.0.1
cafile $dir/ca.pem
certfile $dir/server.pem
keyfile $dir/server.key
CONF
    export NFCTAP_MOSQUITTO_LOG="$dir/mosquitto.log"
    "$NFCTAP_MOSQUITTO_CTL" start
    export NFCTAP_SERVICE_MOSQUITTO=1
    log "mosquitto: pid $(cat "$dir/mosquitto.pid"), 127.0.0.1:$NFCTAP_MOSQUITTO_PORT, TLS 127.0.0.1:$NFCTAP_MOSQUITTO_TLS_PORT (CA $NFCTAP_MOSQUITTO_CA)"
}

stop_mosquitto() {
    [ -n "${NFCTAP_MOSQUITTO_DIR:-}" ] || return 0
    "$NFCTAP_MOSQUITTO_CTL" stop
    unset NFCTAP_SERVICE_MOSQUITTO
}
