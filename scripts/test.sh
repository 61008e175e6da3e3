#!/usr/bin/env bash
# Runs every test: unit, protocol and system rings (docs/architecture.md), then a kiosk soak and
# a brief fuzz pass. Extra arguments go to `swift test` instead (e.g. --filter ScanCLITests), with
# the daemons up and no soak or fuzz.
#
#   ./scripts/test.sh --quick    the quick loop: the debug build, then rings 1 and 2 only (no
#                                daemons, no namespace, no release build), the same summary lines.
#
# In two stages:
# 1. on the machine: installs what is missing, finds the vpcd driver (never configured in /etc),
#    builds; this stage needs the network (apt, SwiftPM);
# 2. in a private network + mount namespace (unshare; a user namespace too when not root): starts
#    the daemons the system ring uses (scripts/services/*.sh: each defines start_<name> and
#    stop_<name>), runs `swift test`, stops what it started. Its only network interface is
#    loopback, so vpcd's ports (bound on every address) are unreachable from outside and do not
#    collide with a pcscd of the machine; /run/pcscd is a private tmpfs, so the test pcscd cannot
#    touch the machine's pcscd.pid or socket.
# Then, back on the machine: checks that /etc/reader.conf.d is as it was, and prints one summary
# line per ring, the first failing test, and last a plain `tests: N passed, N failed` line.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

# `swift test` with its output kept for the summary: RING passed failed first-failure, one line.
failed_any=0
run_ring() {
    local ring="$1"; shift
    local out="$NFCTAP_TEST_RUN_DIR/$ring.out" status=0 t0=$SECONDS
    swift test --skip-build --disable-xctest "$@" 2>&1 | tee "$out" || status=$?
    scripts/test-summary.sh ring "$ring" "$status" <"$out" >>"$summary"
    log "$ring: $((SECONDS - t0)) s"
    [ "$status" -eq 0 ] || failed_any=1
}

# ---- the quick loop: rings 1 and 2 (no daemons, no namespace), after a debug build ----
if [ "${1:-}" = --quick ]; then
    shift
    ensure_packages "${NFCTAP_RUNTIME_PACKAGES[@]}"
    ensure_swift
    quick_start=$SECONDS
    log "building (debug, with the tests)"
    swift build --build-tests
    export NFCTAP_TEST_RUN_DIR
    NFCTAP_TEST_RUN_DIR="$(mktemp -d /tmp/nfctap-test.XXXXXX)"
    summary="$NFCTAP_TEST_RUN_DIR/summary"
    trap 'rm -rf "$NFCTAP_TEST_RUN_DIR"' EXIT
    run_ring unit+protocol --skip SystemTests --skip NFCTapKitTests
    # (one test at a time, as in the full run: see there)
    run_ring application --filter NFCTapKitTests --no-parallel
    log "quick loop: $((SECONDS - quick_start)) s (rings 1 and 2; ./scripts/test.sh runs everything)"
    scripts/test-summary.sh total "$failed_any" <"$summary"
    exit "$failed_any"
fi

# ---- stage 2: inside the namespace (scripts/test.sh re-runs itself with NFCTAP_TEST_STAGE=inner) ----
if [ "${NFCTAP_TEST_STAGE:-}" = inner ]; then
    ensure_swift
    ip link set lo up
    # umockdev delivers uevents over Unix datagram sockets, whose queue holds net.unix.max_dgram_qlen
    # messages (10 in a new network namespace): a replug storm of two readers overflows it and the
    # emulator aborts. This namespace's own value (the machine's is untouched).
    echo 512 >/proc/sys/net/unix/max_dgram_qlen
    # The services' fixed ports (vpcd's two, the USB readers' cards) are taken out of this
    # namespace's ephemeral range: a free port asked of the kernel (mosquitto's, a test broker's)
    # once landed on a card port and the USB emulator could not start. Per namespace: the
    # machine's setting is not touched.
    vpcd_port="${NFCTAP_VPCD_PORT:-35963}" card_port="${NFCTAP_USB_CARD_PORT:-35980}"
    echo "$vpcd_port-$((vpcd_port + 1)),$card_port-$((card_port + 9))" >/proc/sys/net/ipv4/ip_local_reserved_ports 2>/dev/null \
        || log "could not reserve the test services' ports in the namespace (they may collide with a free port)"
    # pcscd writes and, leaving, deletes /run/pcscd/pcscd.pid (and .comm): a private tmpfs there
    # keeps it off the machine's pcscd. (As root the directory is made if missing, as pcscd would.)
    [ -d /run/pcscd ] || mkdir -p /run/pcscd 2>/dev/null || true
    if [ -d /run/pcscd ]; then mount -t tmpfs -o mode=0755 tmpfs /run/pcscd; fi

    export NFCTAP_TEST_RUN_DIR
    NFCTAP_TEST_RUN_DIR="$(mktemp -d /tmp/nfctap-test.XXXXXX)"
    # The system ring must not skip in this script: a missing daemon is a failure here.
    export NFCTAP_REQUIRE_SYSTEM=1
    summary="${NFCTAP_TEST_SUMMARY:?}"

    services=()
    for f in scripts/services/*.sh; do
        [ -e "$f" ] || continue
        . "$f"
        services+=("$(basename "$f" .sh)")
    done

    stop_all() {
        local rc=$?
        # An interrupted run: the lane beside ends with its tests (its own trap stops its broker).
        if [ -n "${beside:-}" ]; then pkill -TERM -f "nfctapPackageTests.xctest --testing-library" 2>/dev/null || true; wait "$beside" 2>/dev/null || true; fi
        for s in "${services[@]}"; do "stop_$s" || true; done
        if [ "$rc" -ne 0 ]; then
            # The daemons' logs go with the run directory: show their ends (the summary follows them).
            for f in "$NFCTAP_TEST_RUN_DIR"/*.log; do
                [ -f "$f" ] || continue
                log "last lines of $f:"
                tail -n 30 "$f" >&2
            done
        fi
        rm -rf "$NFCTAP_TEST_RUN_DIR"
        exit $rc
    }
    trap stop_all EXIT INT TERM

    for s in "${services[@]}"; do log "starting $s"; "start_$s"; done

    # The suites that need the release binary (run after the background build, see stage 1).
    release_suites='DebPackageLintianTests/lintianIsCleanOnTheReleasePackage|ReleaseBinaryTests'
    # The system suites that run beside the others (see below): the broker-only fleet suites,
    # packaging, the libnfc suites that drive their own PN532 emulator without the CLI, the docs'.
    beside_suites='FleetSystemTests|FleetRotationTests|FleetOperatorTests|DebPackageTests|DebInstallTests|DebPackageLintianTests|AgentDesktopFilesTests'
    beside_suites+='|FaultMatrixLibNFCTests|LibNFCBackendSystemTests|LibNFCWrapperSystemTests|PN532LibNFCToolsTests'
    beside_suites+='|DocsReferenceTests|ArchitectureDocTests|TestSummaryTests|PackagingTests'

    # Runs suites of the lane beside `run_ring`'s, from the test bundle (`swift test` holds the
    # build directory's lock for as long as it runs), with a broker of its own (its run directory
    # inside ours). Output to RING.out, shown when the lane is done; the record to "$summary".
    run_beside() {
        local ring="$1"; shift
        local out="$NFCTAP_TEST_RUN_DIR/$ring.out" status=0 t0=$SECONDS
        (
            NFCTAP_TEST_RUN_DIR="$NFCTAP_TEST_RUN_DIR/$ring"
            mkdir -p "$NFCTAP_TEST_RUN_DIR"
            start_mosquitto
            trap stop_mosquitto EXIT
            NO_COLOR=1 "$bundle" --testing-library swift-testing "$@"
        ) >"$out" 2>&1 || status=$?
        echo "$ring: $((SECONDS - t0)) s" >>"$out"
        scripts/test-summary.sh ring "$ring" "$status" <"$out" >>"$summary"
        return "$status"
    }

    # Waits for the release binary and the fuzz targets (the background build of stage 1).
    background_build_ok() {
        while [ ! -e "$NFCTAP_BACKGROUND_BUILD/status" ]; do
            # (A build that died without a word, e.g. killed for memory, counts as failed.)
            kill -0 "${NFCTAP_BACKGROUND_BUILD_PID:-0}" 2>/dev/null || { sleep 1; [ -e "$NFCTAP_BACKGROUND_BUILD/status" ] || echo 1 >"$NFCTAP_BACKGROUND_BUILD/status"; }
            sleep 1
        done
        [ "$(cat "$NFCTAP_BACKGROUND_BUILD/status")" = 0 ]
    }

    # The Home Assistant ring (scripts/ha-ring.sh): nfctap's station against a real HA core, once
    # stage 1's background install is done. Output to homeassistant.out; the record to "$summary".
    run_homeassistant() {
        local summary="$1" out="$NFCTAP_TEST_RUN_DIR/homeassistant.out" status=0 t0=$SECONDS
        while [ ! -e "$NFCTAP_BACKGROUND_BUILD/ha-install.status" ]; do
            # (An install that died without a word counts as failed.)
            kill -0 "${NFCTAP_HA_INSTALL_PID:-0}" 2>/dev/null || { sleep 1; [ -e "$NFCTAP_BACKGROUND_BUILD/ha-install.status" ] || echo 1 >"$NFCTAP_BACKGROUND_BUILD/ha-install.status"; }
            sleep 1
        done
        if [ "$(cat "$NFCTAP_BACKGROUND_BUILD/ha-install.status")" != 0 ]; then
            { echo "installing Home Assistant failed:"; tail -n 40 "$NFCTAP_BACKGROUND_BUILD/ha-install.log"; } >"$out"
            printf 'homeassistant\x1f0\x1f1\x1f\x1f%s\n' "installing Home Assistant from PyPI failed (log above)" >>"$summary"
            return 1
        fi
        scripts/ha-ring.sh >"$out" 2>&1 || status=$?
        echo "homeassistant: $((SECONDS - t0)) s" >>"$out"
        scripts/test-summary.sh ha "$status" <"$out" >>"$summary"
        return "$status"
    }

    # The second lane, beside ring 3's suites that share pcscd: the suites that share nothing
    # with them, then (once the background build has made them) the release binary's suites and
    # the brief fuzz pass. Output to files in the run directory; records to beside.summary.
    lane_beside() {
        local failed=0 status=0 summary="$NFCTAP_TEST_RUN_DIR/beside.summary"
        run_beside system-beside --filter "$beside_suites" --skip "$release_suites" || failed=1
        run_homeassistant "$summary" || failed=1
        if background_build_ok; then
            run_beside release --filter "$release_suites" || failed=1
        else
            { echo "the background build failed:"; tail -n 40 "$NFCTAP_BACKGROUND_BUILD/log"; } >"$NFCTAP_TEST_RUN_DIR/release.out"
            printf 'release-build\x1f0\x1f1\x1f\x1f%s\n' "the release build or the fuzz targets' build failed (log above)" >>"$summary"
            return 1
        fi
        # Every fuzz target briefly, under AddressSanitizer (Fuzz/README.md; NFCTAP_FUZZ_SECONDS=0
        # replays the committed corpus and regression inputs only).
        ./scripts/fuzz.sh --seconds "${NFCTAP_FUZZ_SECONDS:-5}" >"$NFCTAP_TEST_RUN_DIR/fuzz.out" 2>&1 || status=$?
        scripts/test-summary.sh fuzz "$status" <"$NFCTAP_TEST_RUN_DIR/fuzz.out" >>"$summary"
        [ "$status" -eq 0 ] || failed=1
        return "$failed"
    }

    # Rings 1 and 2 in parallel; ring 3 one test at a time in each of two lanes: the suites of the
    # first share one pcscd (with two vpcd readers), one private bus and the org.bluez name, and
    # restart pcscd under each other; those of the second share none of them.
    if [ "$#" -gt 0 ]; then
        log "running tests: $*"
        run_ring selected "$@"
    else
        log "running unit and protocol tests"
        run_ring unit+protocol --skip SystemTests --skip NFCTapKitTests
        # The application in process (kiosk runner, inventory session, desk runs on the virtual
        # backend): one test at a time, as some of its harnesses block a thread while they wait for
        # a tap, which in a parallel run can starve the other suites' async work on 2 cores.
        log "running application tests in process"
        run_ring application --filter NFCTapKitTests --no-parallel
        log "running system tests in two lanes (the second: beside_suites, a real Home Assistant, then the release binary's suites and a brief fuzz pass)"
        bundle="$(swift build --show-bin-path)/nfctapPackageTests.xctest"
        lane_beside &
        beside=$!
        run_ring system --filter SystemTests --skip RealDriverTests --skip "$release_suites" --skip "$beside_suites" --no-parallel
        # Ring 4: pcscd + libccid and libnfc's USB drivers on readers emulated at the USB boundary.
        log "running real-driver tests (emulated USB readers)"
        run_ring real-drivers --filter RealDriverTests --no-parallel
        # The kiosk under 2000 virtual taps: resources flat, one line per tap (a few seconds). Fewer taps
        # leave the allocator's warm-up inside the judged half (500 taps grew +524…+604 KiB of +606 allowed).
        status=0
        scripts/soak.sh 2000 2>&1 | tee "$NFCTAP_TEST_RUN_DIR/soak.out" || status=$?
        scripts/test-summary.sh soak "$status" <"$NFCTAP_TEST_RUN_DIR/soak.out" >>"$summary"
        [ "$status" -eq 0 ] || failed_any=1
        log "waiting for the second lane"
        wait "$beside" || failed_any=1
        beside=""
        for ring in system-beside homeassistant release fuzz; do
            [ -f "$NFCTAP_TEST_RUN_DIR/$ring.out" ] || continue
            log "the second lane's $ring:"
            cat "$NFCTAP_TEST_RUN_DIR/$ring.out"
        done
        cat "$NFCTAP_TEST_RUN_DIR/beside.summary" >>"$summary" 2>/dev/null || true
    fi
    exit "$failed_any"
fi

# ---- stage 1: on the machine ----
ensure_packages "${NFCTAP_RUNTIME_PACKAGES[@]}" "${NFCTAP_TEST_PACKAGES[@]}"
ensure_swift
NFCTAP_VPCD_DRIVER="$(ensure_vpcd_driver)"
export NFCTAP_VPCD_DRIVER
warn_system_vpcd

# Home Assistant for the HA ring (full runs), from PyPI into .build/ha-venv: in the background,
# during the debug build (mostly download and unpacking, which then keeps off the rings' disk and
# CPU); the second lane waits for "$NFCTAP_BACKGROUND_BUILD/ha-install.status".
if [ "$#" -eq 0 ]; then
    export NFCTAP_BACKGROUND_BUILD
    NFCTAP_BACKGROUND_BUILD="$(mktemp -d /tmp/nfctap-test-build.XXXXXX)"
    log "installing Home Assistant for its ring in the background (log: $NFCTAP_BACKGROUND_BUILD/ha-install.log)"
    setsid nice -n "${NFCTAP_BACKGROUND_NICE:-19}" bash -c 'status=0; scripts/ha-ring.sh --install-only >"$NFCTAP_BACKGROUND_BUILD/ha-install.log" 2>&1 || status=$?
        echo "$status" >"$NFCTAP_BACKGROUND_BUILD/ha-install.status"' &
    ha_install=$!
    export NFCTAP_HA_INSTALL_PID="$ha_install"
fi
# An install still running when stage 1 ends early (a failed build, Ctrl-C) goes with it.
stop_ha_install() {
    if [ -n "${ha_install:-}" ] && [ ! -e "$NFCTAP_BACKGROUND_BUILD/ha-install.status" ]; then
        kill -TERM -- "-$ha_install" 2>/dev/null || true
    fi
    [ -z "${ha_install:-}" ] || wait "$ha_install" 2>/dev/null || true
}
trap 'stop_ha_install; [ -z "${NFCTAP_BACKGROUND_BUILD:-}" ] || rm -rf "$NFCTAP_BACKGROUND_BUILD"' EXIT

log "building"
build_start=$SECONDS
swift build --build-tests
log "debug build: $((SECONDS - build_start)) s"
# The release binary the Debian package ships (scripts/lib/release-build.sh): lintian judges its
# package (DebPackageLintianTests) and ReleaseBinaryTests run it. Skipped when extra
# arguments select tests (NFCTAP_RELEASE_BUILD=1 forces it, in the foreground).
. scripts/lib/release-build.sh
NFCTAP_RELEASE_BINARY="$PWD/$NFCTAP_RELEASE_SCRATCH/release/nfctap"
if [ "$#" -gt 0 ] && [ "${NFCTAP_RELEASE_BUILD:-}" = 1 ]; then
    log "building the release binary"
    release_build nfctap
    export NFCTAP_RELEASE_BINARY
    # A library the binary starts linking is a new dependency of every user: a decision, not an accident.
    check_linked_libraries "$NFCTAP_RELEASE_BINARY" || { log "FAIL: the release binary links other libraries than packaging/release-libraries.txt"; exit 1; }
elif [ "$#" -eq 0 ]; then
    # The full run builds the release binary and the fuzz targets in the background, at the lowest
    # CPU priority, while the rings run (ring 3 runs one test at a time and mostly waits on its
    # daemons, so the build takes the idle CPU and adds little to the run); stage 2 waits for
    # "$NFCTAP_BACKGROUND_BUILD/status" before the suites that need them.
    # (Dependencies resolved here, in the foreground: this stage has the network, stage 2 does not.)
    swift package resolve --scratch-path "$NFCTAP_RELEASE_SCRATCH" >/dev/null
    log "building the release binary and the fuzz targets in the background (log: $NFCTAP_BACKGROUND_BUILD/log)"
    # (NFCTAP_BACKGROUND_NICE: another niceness, e.g. 0 on a machine busy with other work, where
    # the lowest priority would leave the build waiting behind it.)
    nice="${NFCTAP_BACKGROUND_NICE:-19}"
    # Its own session (setsid), so that an interrupted run ends the whole build: its process group.
    NFCTAP_RELEASE_BINARY="$NFCTAP_RELEASE_BINARY" setsid nice -n "$nice" bash -c '
        . scripts/lib.sh; . scripts/lib/release-build.sh
        status=0
        {
            t0=$SECONDS
            release_build nfctap \
                && check_linked_libraries "$NFCTAP_RELEASE_BINARY" \
                && log "release build: $((SECONDS - t0)) s (in the background)" \
                && t0=$SECONDS && scripts/fuzz.sh --build-only \
                && log "fuzz targets'"'"' build: $((SECONDS - t0)) s (in the background)"
        } >"$NFCTAP_BACKGROUND_BUILD/log" 2>&1 || status=$?
        echo "$status" >"$NFCTAP_BACKGROUND_BUILD/status"' &
    background_build=$!
    export NFCTAP_RELEASE_BINARY NFCTAP_BACKGROUND_BUILD_PID="$background_build"
fi

# What must be the same after the run: the machine's reader configuration.
etc_state() { find /etc/reader.conf.d -maxdepth 1 -type f -exec sha256sum {} + 2>/dev/null | LC_ALL=C sort || true; }
etc_before="$(etc_state)"

export NFCTAP_TEST_SUMMARY
NFCTAP_TEST_SUMMARY="$(mktemp /tmp/nfctap-test-summary.XXXXXX)"
cleanup_stage1() {
    rm -f "$NFCTAP_TEST_SUMMARY"
    # A background build still running (the run was interrupted) goes with it.
    if [ -n "${background_build:-}" ]; then
        [ -e "$NFCTAP_BACKGROUND_BUILD/status" ] || kill -TERM -- "-$background_build" 2>/dev/null || true
        wait "$background_build" 2>/dev/null || true
    fi
    stop_ha_install
    [ -z "${NFCTAP_BACKGROUND_BUILD:-}" ] || rm -rf "$NFCTAP_BACKGROUND_BUILD"
}
trap cleanup_stage1 EXIT

if [ "$(id -u)" -eq 0 ]; then
    namespace=(unshare --net --mount)
else
    # A user namespace lets a user make the network namespace; inside it the tests run as its root.
    namespace=(unshare --user --map-root-user --net --mount)
fi
status=0
NFCTAP_TEST_STAGE=inner "${namespace[@]}" -- "$PWD/scripts/test.sh" "$@" || status=$?

if [ "$(etc_state)" != "$etc_before" ]; then
    log "FAIL: /etc/reader.conf.d changed during the run:"
    diff <(printf '%s\n' "$etc_before") <(etc_state) >&2 || true
    printf 'machine-state: 0 passed, 1 failed (/etc/reader.conf.d changed)\n' >>"$NFCTAP_TEST_SUMMARY"
    [ "$status" -ne 0 ] || status=1
fi

# Last on screen, after any daemon logs: one line per ring, the first failure, the total.
scripts/test-summary.sh total "$status" <"$NFCTAP_TEST_SUMMARY"
exit "$status"
