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
    # The toolchain's lld instead of gold, so that the 84,000 relative relocations of the
    # position-independent binary are packed (DT_RELR, glibc 2.36+) instead of 2 MB of RELA
    # entries; and no dynamic export of the 33,000 symbols the static Swift runtime's link
    # arguments export (-export-dynamic), which nothing loads by name.
    -Xswiftc -use-ld=lld
    -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic
    # No RUNPATH: every library the binary needs is in the system's library directories.
    --disable-local-rpath
    # Build paths out of the binary's debug strings, so two checkouts build the same binary.
    -Xswiftc -file-prefix-map -Xswiftc "$PWD=."
    # libstdc++ linked in too (the Swift runtime and ICU are the process's only C++): the
    # toolchain's link arguments name -lstdc++, and this directory, searched first, holds only the
    # static archive (licence in packaging/deb/copyright).
    -Xlinker -L -Xlinker "$PWD/$NFCTAP_RELEASE_SCRATCH/static-libstdcxx"
    # And GCC's own runtime (libgcc, the unwinder libgcc_eh) instead of libgcc_s.so.1 (licence in
    # packaging/deb/copyright).
    -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
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
    swift build "${NFCTAP_RELEASE_FLAGS[@]}" --scratch-path "$NFCTAP_RELEASE_SCRATCH" --product "$1" >&2
}

# The objects of a build made with other flags are removed first: the Swift driver does not
# rebuild for every changed flag (an -Xfrontend flag), so the binary would keep objects the flags
# no longer describe. The flags are kept in a stamp file beside the build.
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
