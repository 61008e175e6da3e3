#!/usr/bin/env bash
# The summary of a scripts/test.sh run (used by it; not run by hand).
#
#   test-summary.sh ring NAME STATUS  < `swift test` output   → one record for the summary file
#   test-summary.sh soak STATUS       < scripts/soak.sh output → one record
#   test-summary.sh fuzz STATUS       < scripts/fuzz.sh output → one record
#   test-summary.sh ha STATUS         < scripts/ha-ring.sh output → one record
#   test-summary.sh total STATUS      < the records            → the lines printed at the end
#
# A record is NAME, PASSED, FAILED, NOTE, FIRST-FAILURE separated by the unit separator (0x1F:
# unlike a tab, `read` keeps an empty field between two of them). `total` prints
# `NAME: P passed, F failed[ (NOTE)]` per record, `first failure: …` when there is one, and last a
# plain `tests: P passed, F failed` with the sums (the line CI reads).
set -euo pipefail

sep=$'\x1f'
record() { printf '%s\x1f%s\x1f%s\x1f%s\x1f%s\n' "$1" "$2" "$3" "${4:-}" "${5:-}"; }

case "${1:-}" in
ring)
    name="$2" status="$3"
    out="$(cat)"
    # swift-testing: "Test run with 418 tests in 52 suites passed after …" (or "failed after …");
    # every failed test: "Test name() failed after … with N issues."; skipped: "Test name() skipped".
    total="$(printf '%s\n' "$out" | sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .*/\1/p' | tail -1)"
    failed="$(printf '%s\n' "$out" | grep -E '^[^ ]+ Test .* failed after' | grep -vc 'Test run with' || true)"
    # (A test whose name says "skipped" prints "started." and "passed after" lines, not a skip.)
    skipped="$(printf '%s\n' "$out" | grep -E '^[^ ]+ Test .* skipped' | grep -Evc ' (started\.|passed after|failed after)' || true)"
    first="$(printf '%s\n' "$out" | grep -E '^[^ ]+ Test .* failed after' | grep -v 'Test run with' | head -1 \
             | sed -E 's/^.*Test (.*) failed after.*$/\1/' || true)"
    where="$(printf '%s\n' "$out" | grep -E 'recorded an issue at ' | head -1 \
             | sed -E 's/^.*recorded an issue at ([^ ]*):.*$/\1/' || true)"
    [ -n "$first" ] && [ -n "$where" ] && first="$first at $where"
    note=""
    [ "$skipped" -gt 0 ] && note="$skipped skipped"
    if [ -z "$total" ]; then
        # No closing line: the test process crashed or did not build.
        passed="$(printf '%s\n' "$out" | grep -Ec '^[^ ]+ Test .* passed after' || true)"
        failed=$(( failed + 1 ))
        note="swift test exited with status $status before its closing line"
        [ -n "$first" ] || first="(swift test, exit status $status: see the output above)"
    else
        passed=$(( total - failed - skipped ))
        if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
            failed=1
            note="${note:+$note; }swift test exited with status $status"
            first="(swift test, exit status $status: see the output above)"
        fi
    fi
    record "$name" "$passed" "$failed" "$note" "$first"
    ;;
soak)
    status="$2"
    out="$(cat)"
    verdict="$(printf '%s\n' "$out" | grep -E '^(PASS|FAIL)' | head -3 | paste -sd ';' - || true)"
    if [ "$status" -eq 0 ]; then
        record soak 1 0 "${verdict:-PASS}"
    else
        record soak 0 1 "${verdict:-exit status $status}" "soak: ${verdict:-exit status $status}"
    fi
    ;;
fuzz)
    status="$2"
    out="$(cat)"
    # scripts/fuzz.sh's table: "<target> <execs> <rate> <result> <notes>", result ok/FOUND/CRASH/STRICT.
    rows="$(printf '%s\n' "$out" | grep -E '^[a-z0-9-]+ .* (ok|FOUND|CRASH|STRICT) ' || true)"
    passed="$(printf '%s\n' "$rows" | grep -Ec ' ok ' || true)"
    bad="$(printf '%s\n' "$rows" | grep -E ' (FOUND|CRASH|STRICT) ' | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^(FOUND|CRASH|STRICT)$/) { print $1 " " $i; break }}' | paste -sd ',' - || true)"
    failed="$(printf '%s\n' "$rows" | grep -Ec ' (FOUND|CRASH|STRICT) ' || true)"
    if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; bad="scripts/fuzz.sh exit status $status"; fi
    record fuzz "$passed" "$failed" "targets, ASan${bad:+; $bad}" "${bad:+fuzz: $bad}"
    ;;
ha)
    status="$2"
    out="$(cat)"
    # ha_ring.py: "ok  NAME: …" / "FAIL NAME: …" per scenario, then "ha-ring: P passed, F failed";
    # scripts/ha-ring.sh says "Home Assistant ring skipped: WHY" when the machine cannot run HA.
    counts="$(printf '%s\n' "$out" | sed -n 's/^ha-ring: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1 \2/p' | tail -1)"
    skipped="$(printf '%s\n' "$out" | sed -n 's/^.*Home Assistant ring skipped: //p' | head -1)"
    first="$(printf '%s\n' "$out" | grep -m1 '^FAIL ' | cut -c6- || true)"
    if [ -n "$skipped" ] && [ "$status" -eq 0 ]; then
        record homeassistant 0 0 "skipped: $skipped"
    elif [ -n "$counts" ]; then
        passed="${counts% *}" failed="${counts#* }"
        if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; first="scripts/ha-ring.sh exit status $status"; fi
        record homeassistant "$passed" "$failed" "a real Home Assistant" "${first:+homeassistant: $first}"
    else
        record homeassistant 0 1 "exit status $status" "homeassistant: ${first:-no result (scripts/ha-ring.sh exit status $status)}"
    fi
    ;;
total)
    status="$2"
    sum_passed=0 sum_failed=0 first=""
    while IFS="$sep" read -r name passed failed note failure; do
        [ -n "$name" ] || continue
        printf '%s: %d passed, %d failed%s\n' "$name" "$passed" "$failed" "${note:+ ($note)}"
        sum_passed=$(( sum_passed + passed ))
        sum_failed=$(( sum_failed + failed ))
        [ -z "$first" ] && [ -n "$failure" ] && first="$failure"
    done
    if [ "$status" -ne 0 ] && [ "$sum_failed" -eq 0 ]; then
        # Failed before any ring reported (a service did not start, the build broke…).
        sum_failed=1
        first="${first:-the run stopped with status $status before the tests (see the messages above)}"
    fi
    [ -n "$first" ] && printf 'first failure: %s\n' "$first"
    printf 'tests: %d passed, %d failed\n' "$sum_passed" "$sum_failed"
    ;;
*)
    echo "usage: $0 ring NAME STATUS | soak STATUS | fuzz STATUS | ha STATUS | total STATUS (input on stdin)" >&2
    exit 64
    ;;
esac
