#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in Fuzz/Targets (Fuzz/README.md).
#
#   scripts/fuzz.sh [--seconds N] [--asan-only] [--build-only] [TARGET…]
#
# Each target is built with `swiftc -sanitize=fuzzer,address` (so every run is also an
# AddressSanitizer run) against the project modules it names, compiled the same way; builds are
# cached under .build-fuzz/ (or $NFCTAP_FUZZ_BUILD_DIR) and redone only when a source or flag
# changes. Each target then runs for N seconds (default 60) on a scratch copy of its seed corpus
# Fuzz/corpus/<target>/ (the repository is never written to), with a per-input timeout of 5 s so
# a hang is a finding.
# --asan-only (or --seconds 0) builds and runs every committed seed and regression input once,
# without fuzzing. --build-only builds (or finds cached) every target and runs none (scripts/test.sh
# builds them in the background while the rings run).
#
# Exit status: 0 when no target found anything, 1 when one did (the input is left under
# fuzz-out/<target>/ and the command to reproduce it is printed), 2 for a usage or build error.
set -euo pipefail
cd "$(dirname "$0")/.."

# Everything runs from main, parsed whole before it starts.
main() {

    seconds=60
    asan_only=0
    build_only=0
    targets=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
            --seconds=*) seconds="${1#--seconds=}"; shift ;;
            --asan-only) asan_only=1; shift ;;
            --build-only) build_only=1; shift ;;
            -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
            -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
            *) targets+=("$1"); shift ;;
        esac
    done
    case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: --seconds takes a whole number" >&2; exit 2 ;; esac
    # libFuzzer reads -max_total_time=0 as "no limit"; here 0 means "no fuzzing".
    [ "$seconds" -eq 0 ] && asan_only=1

    log() { printf 'fuzz: %s\n' "$*" >&2; }

    if ! command -v swiftc >/dev/null 2>&1; then
        for d in /opt/swift/usr/bin /opt/swift/bin; do [ -x "$d/swiftc" ] && export PATH="$d:$PATH"; done
    fi
    command -v swiftc >/dev/null 2>&1 || { log "swiftc not found (install Swift 6 to /opt/swift)"; exit 2; }

    all_targets=()
    for f in Fuzz/Targets/*.swift; do all_targets+=("$(basename "$f" .swift)"); done
    [ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
    for t in "${targets[@]}"; do
        [ -f "Fuzz/Targets/$t.swift" ] || { log "no target '$t' (have: ${all_targets[*]})"; exit 2; }
    done

    build_dir="${NFCTAP_FUZZ_BUILD_DIR:-.build-fuzz}"
    flags=(-O -g -sanitize=fuzzer,address -swift-version 6)
    # Project modules and what each imports (mirrors Package.swift for the pure-Swift modules).
    declare -A module_deps=([NDEF]="" [NFCTags]="NDEF" [ZebraPrinter]="NDEF")
    declare -A module_key=()

    # ld.gold warns about ASan's local symbols for every link; the warnings are harmless.
    filter_link_noise() { grep -v -e 'Cannot export local symbol' -e '^warning: .*__asan' || true; }

    hash_of() { sha256sum | cut -c1-16; }
    toolchain_key="$(swiftc --version 2>&1 | hash_of)"

    # Compiles Sources/<module> into a static library + .swiftmodule, once per content change.
    build_module() {
        local m="$1" dep
        [ -n "${module_key[$m]:-}" ] && return 0
        for dep in ${module_deps[$m]}; do build_module "$dep"; done
        local out="$build_dir/modules/$m" sources
        mapfile -t sources < <(find "Sources/$m" -name '*.swift' | LC_ALL=C sort)
        local key
        key="$( { echo "$toolchain_key ${flags[*]}"; for dep in ${module_deps[$m]}; do echo "${module_key[$dep]}"; done
                  cat "${sources[@]}"; } | hash_of)"
        module_key[$m]="$key"
        if [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then return 0; fi
        log "building module $m"
        mkdir -p "$out"
        local includes=()
        for dep in ${module_deps[$m]}; do includes+=(-I "$build_dir/modules/$dep"); done
        swiftc -module-name "$m" -package-name nfctap -parse-as-library -wmo "${flags[@]}" "${includes[@]}" \
            -emit-library -static -o "$out/lib$m.a" -emit-module -emit-module-path "$out/$m.swiftmodule" \
            "${sources[@]}" 2>&1 | filter_link_noise
        echo "$key" > "$out/key"
    }

    # The value of a `// fuzz-<name>: …` line in a target's source.
    target_setting() { sed -n "s|^// fuzz-$2: *||p" "Fuzz/Targets/$1.swift" | head -1; }

    # Modules a target links, dependencies last (static link order).
    link_order() {
        local m seen=" " out=()
        visit() {
            local x="$1" d
            case "$seen" in *" $x "*) return ;; esac
            seen+="$x "
            for d in ${module_deps[$x]}; do visit "$d"; done
            out=("$x" "${out[@]}")
        }
        for m in $(target_setting "$1" modules); do visit "$m"; done
        echo "${out[@]}"
    }

    build_target() {
        local t="$1" m mods key
        mods="$(link_order "$t")"
        for m in $mods; do build_module "$m"; done
        key="$( { echo "$toolchain_key ${flags[*]}"; for m in $mods; do echo "${module_key[$m]}"; done
                  cat Fuzz/Support/*.swift "Fuzz/Targets/$t.swift"; } | hash_of)"
        local bin="$build_dir/bin/$t"
        if [ -x "$bin" ] && [ "$(cat "$bin.key" 2>/dev/null)" = "$key" ]; then return 0; fi
        log "building target $t"
        mkdir -p "$build_dir/bin"
        local args=()
        for m in $mods; do args+=(-I "$build_dir/modules/$m" -L "$build_dir/modules/$m"); done
        for m in $mods; do args+=("-l$m"); done
        swiftc -module-name "fuzz_${t//-/_}" -parse-as-library "${flags[@]}" "${args[@]}" \
            Fuzz/Support/*.swift "Fuzz/Targets/$t.swift" -o "$bin" 2>&1 | filter_link_noise
        echo "$key" > "$bin.key"
    }

    build_start=$SECONDS
    for t in "${targets[@]}"; do
        build_target "$t" || { log "build of $t failed"; exit 2; }
    done
    log "build: $((SECONDS - build_start)) s"
    [ "$build_only" = 1 ] && exit 0

    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:symbolize=1}"
    # The Swift runtime's own crash backtracer reads memory ASan flags; libFuzzer prints the stack instead.
    export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
    command -v llvm-symbolizer >/dev/null 2>&1 && export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer)}"

    scratch="$(mktemp -d /tmp/nfctap-fuzz.XXXXXX)"
    trap 'rm -rf "$scratch"' EXIT

    # The accepted findings of target $1 (Fuzz/findings/accepted.txt): each passes as the harness
    # runs by default and is reported (non-zero exit) under NFCTAP_FUZZ_STRICT=1.
    check_accepted_findings() {
        local t="$1" bin="$2" name
        while read -r name; do
            case "$name" in ''|'#'*) continue ;; "$t"-*) ;; *) continue ;; esac
            if ! "$bin" "Fuzz/findings/$name" >/dev/null 2>&1; then
                log "$t: accepted finding $name is reported without strict mode"; return 1
            fi
            if NFCTAP_FUZZ_STRICT=1 "$bin" -artifact_prefix="$scratch/" "Fuzz/findings/$name" >/dev/null 2>&1; then
                log "$t: NFCTAP_FUZZ_STRICT=1 accepts finding $name: the harness's strict switch is broken"; return 1
            fi
        done < Fuzz/findings/accepted.txt
    }

    failed=0
    results=()
    # One summary line per target, logged as soon as the target is done and repeated at the end.
    report() { results+=("$1"); log "$1"; }
    for t in "${targets[@]}"; do
        bin="$build_dir/bin/$t"
        out="fuzz-out/$t"
        # Earlier findings stay until removed by hand; only this run's log is replaced.
        mkdir -p "$out"
        logfile="$out/log.txt"
        rm -f "$logfile"
        start=$SECONDS
        if [ "$asan_only" -eq 1 ]; then
            # Every committed input once (seed corpus, which holds the regression inputs too).
            inputs=(Fuzz/corpus/"$t"/*)
            [ -e "${inputs[0]}" ] || inputs=()
            if [ ${#inputs[@]} -eq 0 ] || "$bin" -artifact_prefix="$out/" "${inputs[@]}" >"$logfile" 2>&1; then
                if ! check_accepted_findings "$t" "$bin"; then
                    failed=1
                    report "$(printf '%-12s %10s %8s  %-6s %s' "$t" "${#inputs[@]} inputs" "-" "STRICT" "an accepted finding is not reported in strict mode")"
                    continue
                fi
                report "$(printf '%-12s %10s %8s  %-6s %s' "$t" "${#inputs[@]} inputs" "-" "ok" "$((SECONDS - start)) s")"
                rm -f "$logfile"
                rmdir "$out" 2>/dev/null || true
            else
                failed=1
                report "$(printf '%-12s %10s %8s  %-6s %s' "$t" "${#inputs[@]} inputs" "-" "CRASH" "$((SECONDS - start)) s")"
                log "$t: an input crashed under ASan; log in $logfile:"
                grep -m1 -B2 -A25 -e 'ERROR: ' -e 'Fatal error' -e 'deadly signal' "$logfile" >&2 || tail -40 "$logfile" >&2
                crashing="$(sed -n 's/^Running: //p' "$logfile" | tail -1)"
                [ -n "$crashing" ] && log "reproduce: $bin $crashing"
            fi
            continue
        fi

        corpus="$scratch/$t"
        mkdir -p "$corpus"
        cp Fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
        options=(-max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1
                 -artifact_prefix="$out/" -max_len="$(target_setting "$t" max-len)")
        [ -f "Fuzz/dict/$t.dict" ] && options+=(-dict="Fuzz/dict/$t.dict")
        status=0
        nice -n 10 "$bin" "${options[@]}" "$corpus" >"$logfile" 2>&1 || status=$?
        execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile" | tail -1)"
        rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logfile" | tail -1)"
        size="$(find "$corpus" -type f | wc -l)"
        if [ "$status" -eq 0 ] && ! check_accepted_findings "$t" "$bin"; then
            failed=1
            report "$(printf '%-12s %10s %8s  %-6s %s' "$t" "${execs:-?}" "${rate:-?}/s" "STRICT" "an accepted finding is not reported in strict mode")"
        elif [ "$status" -eq 0 ]; then
            report "$(printf '%-12s %10s %8s  %-6s %s' "$t" "${execs:-?}" "${rate:-?}/s" "ok" "corpus $size, $((SECONDS - start)) s")"
            rm -f "$logfile"
            rmdir "$out" 2>/dev/null || true
        else
            failed=1
            artifact="$(ls -t "$out"/crash-* "$out"/timeout-* "$out"/oom-* "$out"/leak-* "$out"/slow-unit-* 2>/dev/null | head -1 || true)"
            report "$(printf '%-12s %10s %8s  %-6s %s' "$t" "${execs:-?}" "${rate:-?}/s" "FOUND" "corpus $size, ${artifact:-no artifact}")"
            log "$t: finding (exit $status); log in $logfile:"
            grep -m1 -B2 -A25 -e 'ERROR: ' -e 'Fatal error' -e 'deadly signal' "$logfile" >&2 || tail -40 "$logfile" >&2
            [ -n "$artifact" ] && log "reproduce: $bin $artifact"
        fi
    done

    printf '%-12s %10s %8s  %-6s %s\n' target execs exec/s result notes
    printf '%s\n' "${results[@]}"
    exit "$failed"
}

main "$@"
