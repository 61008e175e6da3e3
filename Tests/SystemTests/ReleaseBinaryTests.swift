import Foundation
import TagEmulation
import Testing

/// The binary the package ships (scripts/lib/release-build.sh), not only the debug build the other
/// tests run: the package asks for the glibc its packed relocations need, and the binary reads a
/// tag through libnfc's own driver. What it links is ReleaseLibrariesTests'.
@Suite struct ReleaseBinaryTests {
    static var binary: String? { DebPackageLintianTests.releaseBinary }

    @Test(.enabled(if: binary != nil && DebPackageTests.haveDpkgDeb, "needs the release build and dpkg-deb"))
    func packageNeedsTheGlibcOfPackedRelocations() throws {
        let versions = try runProgram("/usr/bin/readelf", ["-V", "-W", Self.binary!]).stdout
        let (deb, dir) = try DebPackageTests.buildPackage(binary: Self.binary!)
        defer { try? FileManager.default.removeItem(at: dir) }
        let depends = try DebPackageTests.dpkgDeb(["-f", deb, "Depends"])
        if versions.contains("GLIBC_ABI_DT_RELR") {
            #expect(depends.contains("libc6 (>= 2.36)"), "\(depends)")
        }
    }

    /// libsystemd and libmosquitto are opened on first use (CLazyLibrary): a command without D-Bus
    /// or MQTT loads neither, nor OpenSSL and libgcrypt, which they bring.
    @Test(.enabled(if: binary != nil, "needs the release build"), arguments: [["--version"], ["decode", "--help"]])
    func aCommandWithoutDBusOrMQTTLoadsNeitherLibrary(arguments: [String]) throws {
        let result = try runCLI(arguments, environment: ["LD_DEBUG": "files"], executable: Self.binary!)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("libc.so.6"), "LD_DEBUG=files reports what is loaded: \(result.stderr.prefix(400))")
        for library in ["libsystemd.so", "libmosquitto.so", "libssl.so", "libcrypto.so", "libgcrypt.so"] {
            #expect(!result.stderr.contains(library), "\(arguments) loaded \(library)")
        }
    }

    /// Through libnfc's own pn532_uart driver, by a binary with the Swift runtime, libstdc++ and
    /// libgcc linked in.
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
