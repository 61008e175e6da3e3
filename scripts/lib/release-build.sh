# The one definition of nfctap's release build: the binary scripts/package-deb.sh ships is the
# binary scripts/bench.sh measures (same flags, same build directory). Sourced after scripts/lib.sh.
#
#   release_build PRODUCT      builds PRODUCT (nfctap, nfctap-bench) with these flags
#   release_bin_dir            prints the directory the products are in

NFCTAP_RELEASE_SCRATCH=".build-release"
NFCTAP_RELEASE_FLAGS=(
    -c release
    # The Swift runtime, Foundation and ICU data linked in: the target machine needs no Swift
    # (their licences are listed in packaging/deb/copyright).
    --static-swift-stdlib
    # Hardening as Debian builds C: full RELRO (relocations read-only, BIND_NOW).
    -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
    # No NEEDED entry for a library none of whose symbols is used.
    -Xlinker --as-needed
    # Start-up (docs/architecture.md "Start-up"): the toolchain's lld instead of gold, so that the
    # 84,000 relative relocations of the position-independent binary are packed (DT_RELR, glibc
    # 2.36+) instead of 2 MB of RELA entries; and no dynamic export of the 33,000 symbols the
    # static Swift runtime's link arguments export (-export-dynamic), which nothing loads by name
    # and which made the dynamic loader's and dladdr's work larger. Measured together: start-up
    # 4.8 → 4.0 ms of CPU, peak RSS of `--version` 14.8 → 12.2 MiB.
    -Xswiftc -use-ld=lld
    -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic
    # No RUNPATH: every library the binary needs is in the system's library directories.
    --disable-local-rpath
    # Build paths out of the binary's debug strings, so two checkouts build the same binary.
    -Xswiftc -file-prefix-map -Xswiftc "$PWD=."
    # libstdc++ linked in too (the Swift runtime and ICU are the process's only C++): the
    # toolchain's link arguments name -lstdc++, and this directory, searched first, holds only the
    # static archive. Saves loading and relocating the whole shared library: start-up 3.6 → 3.3 ms
    # of CPU, 2 MiB less peak RSS (docs/architecture.md "Start-up"; licence in packaging/deb/copyright).
    -Xlinker -L -Xlinker "$PWD/$NFCTAP_RELEASE_SCRATCH/static-libstdcxx"
    # And GCC's own runtime (libgcc, the unwinder libgcc_eh) instead of libgcc_s.so.1: one library
    # less to load and relocate, and no __cpu_indicator_init, libgcc_s's constructor, whose dozen
    # cpuid instructions each trap to the hypervisor in a virtual machine. exec → main 0.15–0.3 ms
    # sooner for every command (docs/architecture.md "Start-up"; licence in packaging/deb/copyright).
    -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
    # The functions that start the binary and run `scan` and `fleet forward` placed together at
    # the start of the code, in the order they first run (packaging/symbol-order.txt, made by
    # scripts/symbol-order.sh): the kernel maps 64 KiB of code around every page a fault touches,
    # so scattered start-up code made most of the 17 MB resident. Peak RSS of `scan` 15.0 → 10.7 MiB.
    -Xlinker --symbol-ordering-file="$PWD/packaging/symbol-order.txt" -Xlinker --no-warn-symbol-ordering
    # Each Swift function in a section of its own, so that the order above moves that function
    # alone: without it swiftc puts most of a file's functions in one .text section, and placing
    # one of them placed all (the ordered functions sat among 6.6 MiB of others). With the order
    # regrouped, peak RSS of a station 14.2 → 12.2 MiB, of `scan` 13.8 → 11.4 MiB
    # (docs/architecture.md "Start-up"). Objects made without it are rebuilt
    # (release_objects_follow_flags: the driver does not recompile for this flag alone).
    -Xswiftc -Xfrontend -Xswiftc -function-sections
)

# The directory of the -L above: a link to the compiler's libstdc++.a (libstdc++-12-dev).
release_static_libstdcxx() {
    local archive
    archive="$(gcc -print-file-name=libstdc++.a)"
    [ -f "$archive" ] || { log "libstdc++.a not found (install libstdc++-12-dev)"; return 1; }
    mkdir -p "$NFCTAP_RELEASE_SCRATCH/static-libstdcxx"
    ln -sfn "$archive" "$NFCTAP_RELEASE_SCRATCH/static-libstdcxx/libstdc++.a"
}

release_build() {
    release_static_libstdcxx || return 1
    release_objects_follow_flags
    # SwiftPM does not know the order file is an input of the link: a binary older than the
    # list is removed, so that it is linked again in the list's order.
    local binary
    binary="$NFCTAP_RELEASE_SCRATCH/release/$1"
    if [ -f "$binary" ] && [ packaging/symbol-order.txt -nt "$binary" ]; then rm -f "$binary"; fi
    swift build "${NFCTAP_RELEASE_FLAGS[@]}" --scratch-path "$NFCTAP_RELEASE_SCRATCH" --product "$1" >&2
}

# The objects of a build made with other flags are removed first: the Swift driver rebuilt
# nothing for a changed -Xfrontend flag (-function-sections above), so the binary kept objects the
# flags no longer describe. The flags are kept in a stamp file beside the build.
release_objects_follow_flags() {
    local stamp="$NFCTAP_RELEASE_SCRATCH/release-flags.txt" flags
    flags="$(printf '%s\n' "${NFCTAP_RELEASE_FLAGS[@]}")"
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$flags" ] && return 0
    if [ -d "$NFCTAP_RELEASE_SCRATCH" ]; then
        log "release flags changed: rebuilding the release objects"
        find "$NFCTAP_RELEASE_SCRATCH" -path '*/release/*.build/*' \
            \( -name '*.o' -o -name '*.swiftdeps' -o -name '*.priors' \) -delete 2>/dev/null || true
    fi
    mkdir -p "$NFCTAP_RELEASE_SCRATCH"
    printf '%s\n' "$flags" >"$stamp"
}

release_bin_dir() {
    swift build "${NFCTAP_RELEASE_FLAGS[@]}" --scratch-path "$NFCTAP_RELEASE_SCRATCH" --show-bin-path
}

# Fails (status 1, naming them) when BINARY's NEEDED libraries differ from the checked-in list
# (packaging/release-libraries.txt; LIST to check another): a new library is a new dependency of
# the package and of every user, and must be a decision, not an accident.
check_linked_libraries() {
    local binary="$1" list="${2:-packaging/release-libraries.txt}" actual expected
    actual="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | LC_ALL=C sort)"
    expected="$(grep -v '^#' "$list" | sed '/^$/d' | LC_ALL=C sort)"
    if [ "$actual" != "$expected" ]; then
        log "$binary links other libraries than $list lists:"
        diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") | sed -n 's/^> /  new: /p; s/^< /  gone: /p' >&2
        log "if this is intended, update $list (and the package's dependencies follow from dpkg-shlibdeps)"
        return 1
    fi
}
