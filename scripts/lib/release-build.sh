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
    # No RUNPATH: every library the binary needs is in the system's library directories.
    --disable-local-rpath
    # Build paths out of the binary's debug strings, so two checkouts build the same binary.
    -Xswiftc -file-prefix-map -Xswiftc "$PWD=."
)

release_build() {
    swift build "${NFCTAP_RELEASE_FLAGS[@]}" --scratch-path "$NFCTAP_RELEASE_SCRATCH" --product "$1" >&2
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
