import Foundation
import TagEmulation
import Testing

/// The release link's start-up cuts (scripts/lib/release-build.sh, docs/architecture.md
/// "Start-up") stay in place, checked on the binary itself rather than by timing it: packed
/// relative relocations, no dynamic export of the static runtime's symbols, libstdc++ and libgcc
/// linked in, the start-up's functions placed first; and the package asks for the glibc those
/// relocations need. And the binary so linked still reads a tag through libnfc's own driver.
@Suite struct ReleaseStartupTests {
    static var binary: String? { DebPackageLintianTests.releaseBinary }

    static func readelf(_ args: [String]) throws -> String {
        try runProgram("/usr/bin/readelf", args + [binary!]).stdout
    }

    @Test(.enabled(if: binary != nil, "needs the release build: scripts/package-deb.sh makes .build-release/release/nfctap"))
    func packedRelocationsAndFewExports() throws {
        let dynamic = try Self.readelf(["-d", "-W"])
        #expect(dynamic.contains("(RELR)"), "no DT_RELR: linked without -z pack-relative-relocs?\n\(dynamic)")
        #expect(!dynamic.contains("libstdc++"), "libstdc++ is linked in, not loaded\n\(dynamic)")
        #expect(!dynamic.contains("libgcc_s"), "libgcc is linked in, not loaded (-static-libgcc)\n\(dynamic)")
        // Relative relocations are packed: what is left in .rela.dyn is symbol bindings (hundreds).
        if let count = dynamic.split(separator: "\n").first(where: { $0.contains("(RELACOUNT)") })?
            .split(separator: " ").last.flatMap({ Int($0) }) {
            #expect(count < 1000, "\(count) relative relocations left unpacked")
        }
        // Exported symbols: with the static runtime's -export-dynamic there were 33,000.
        let symbols = try Self.readelf(["--dyn-syms", "-W"]).split(separator: "\n").filter { $0.contains(": ") }
        #expect(symbols.count < 3000, "\(symbols.count) dynamic symbols: is --no-export-dynamic gone?")
    }

    /// packaging/symbol-order.txt reached the linker: the functions it lists are at the start of
    /// the code (all of them within its first half), and the Swift functions among them (each in a
    /// section of its own, -function-sections) lie in the list's order. Which function comes first
    /// is not checked: the list may open with a runtime function whose object's whole .text (1.3 MiB
    /// of the Swift runtime, built without function sections) then goes first. Linked with another
    /// list, 58 % of consecutive listed Swift functions rise in address; with this one, 83 %.
    @Test(.enabled(if: binary != nil, "needs the release build: scripts/package-deb.sh makes .build-release/release/nfctap"))
    func startUpCodeIsPlacedFirst() throws {
        var addresses: [String: UInt64] = [:]
        for line in try runProgram("/usr/bin/nm", [Self.binary!]).stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] == "t" || fields[1] == "T", let address = UInt64(fields[0], radix: 16) else { continue }
            if addresses[String(fields[2])] == nil { addresses[String(fields[2])] = address }
        }
        let (start, end) = (try #require(addresses.values.min()), try #require(addresses.values.max()))
        let list = try String(contentsOf: SystemEnvironment.packageRoot.appendingPathComponent("packaging/symbol-order.txt"), encoding: .utf8)
        let names = list.split(separator: "\n").filter { !$0.hasPrefix("#") }
        let ordered = names.compactMap { addresses[String($0)] }
        #expect(ordered.count > 1000, "\(ordered.count) listed functions found in the binary")
        #expect(ordered.allSatisfy { $0 - start < (end - start) / 2 }, "listed functions beyond the first half of the code")
        let swift = names.filter { $0.hasPrefix("$s") }.compactMap { addresses[String($0)] }
        let rising = zip(swift, swift.dropFirst()).filter { $0 < $1 }.count
        #expect(Double(rising) >= 0.75 * Double(swift.count - 1),
                "\(rising) of \(swift.count - 1) consecutive listed Swift functions rise in address: the list's order did not reach the linker")
    }

    @Test(.enabled(if: binary != nil && DebPackageTests.haveDpkgDeb, "needs the release build and dpkg-deb"))
    func packageNeedsTheGlibcOfPackedRelocations() throws {
        let versions = try Self.readelf(["-V", "-W"])
        let (deb, dir) = try DebPackageTests.buildPackage(binary: Self.binary!)
        defer { try? FileManager.default.removeItem(at: dir) }
        let depends = try DebPackageTests.dpkgDeb(["-f", deb, "Depends"])
        if versions.contains("GLIBC_ABI_DT_RELR") {
            #expect(depends.contains("libc6 (>= 2.36)"), "\(depends)")
        }
        #expect(!depends.contains("libstdc++"), "\(depends)")
        #expect(!depends.contains("libgcc-s1"), "\(depends)")
    }

    /// libgcc_s's constructor (`__cpu_indicator_init`, a dozen `cpuid`s, each a trip to the
    /// hypervisor in a virtual machine) is what linking libgcc in saves: nothing in the binary may
    /// bring it back from libgcc.a (a `__builtin_cpu_supports` would).
    @Test(.enabled(if: binary != nil, "needs the release build: scripts/package-deb.sh makes .build-release/release/nfctap"))
    func noCPUModelProbeAtStart() throws {
        let symbols = try runProgram("/usr/bin/nm", ["--defined-only", Self.binary!]).stdout
        #expect(!symbols.contains("__cpu_indicator_init"), "libgcc's CPU probe is linked in")
        #expect(symbols.contains("_Unwind_RaiseException"), "the unwinder (libgcc_eh) is not linked in")
    }

    /// The binary the package ships, not only the debug build the other tests run, reads a tag
    /// through libnfc's own pn532_uart driver (libnfc and libusb opened on first use by a binary
    /// with the Swift runtime, libstdc++ and libgcc linked in).
    @Test(.enabled(if: binary != nil && SystemEnvironment.available("libnfc"), "needs the release build and libnfc"))
    func theReleaseBinaryReadsATagThroughLibNFC() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0x9A), ndef: ScanVectors.uriMessage)
        let emulator = PN532Emulator(tag: tag)
        let path = try emulator.start()
        defer { emulator.stop() }
        let result = try runCLI(["scan", "--json", "--reader", "libnfc:pn532_uart:\(path)", "--timeout", "20"], executable: Self.binary!)
        #expect(result.status == 0, "\(result.stderr)")
        let read = try ScanJSON.decode(result.stdout)
        #expect(read.uid == tag.uid.hexString)
        #expect(read.records?.first?.uri == ScanVectors.uri, "\(result.stdout)")
    }
}
