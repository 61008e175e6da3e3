import Foundation
import Testing

/// scripts/lib/release-build.sh's check_linked_libraries: the release binary may link only the
/// libraries packaging/release-libraries.txt lists (scripts/package-deb.sh runs it after the build).
@Suite struct ReleaseLibrariesTests {
    static func check(_ binary: String, list: String) throws -> CLIResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-libs-\(UUID().uuidString).txt")
        try list.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try runProgram("/bin/bash", ["-c", ". scripts/lib.sh; . scripts/lib/release-build.sh; check_linked_libraries \"$1\" \"$2\"",
                                            "check", binary, file.path])
    }

    /// The libraries /bin/true links, from readelf (what the check compares).
    static func needed(_ binary: String) throws -> [String] {
        try runProgram("/usr/bin/readelf", ["-d", binary]).stdout.split(separator: "\n")
            .filter { $0.contains("(NEEDED)") }
            .compactMap { $0.split(separator: "[").last?.split(separator: "]").first.map(String.init) }
    }

    @Test func theSameLibrariesPass() throws {
        let libs = try Self.needed("/bin/true")
        #expect(!libs.isEmpty)
        let r = try Self.check("/bin/true", list: "# comment\n" + libs.reversed().joined(separator: "\n") + "\n")
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aNewLibraryFailsNamingIt() throws {
        let libs = try Self.needed("/bin/true")
        let r = try Self.check("/bin/true", list: libs.dropFirst().joined(separator: "\n") + "\nlibgone.so.1\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("new: \(libs[0])"), "\(r.stderr)")
        #expect(r.stderr.contains("gone: libgone.so.1"), "\(r.stderr)")
    }

    @Test func theListIsCheckedIn() throws {
        let list = try String(contentsOf: SystemEnvironment.packageRoot.appendingPathComponent("packaging/release-libraries.txt"), encoding: .utf8)
        let libs = list.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(libs.contains("libc.so.6"))
        #expect(libs.contains("libpcsclite.so.1") && libs.contains("libnfc.so.6"))
        #expect(!libs.contains("libmosquitto.so.1") && !libs.contains("libsystemd.so.0"), "opened on first use (CLazyLibrary), not linked")
        #expect(!libs.contains { $0.hasPrefix("libusb") }, "no libusb: nfctap uses none of its symbols")
        // Linked in by the release build (scripts/lib/release-build.sh): the Swift runtime and
        // Foundation (--static-swift-stdlib), libstdc++ and GCC's runtime (-static-libgcc).
        for linkedIn in ["libswift", "libFoundation", "libdispatch", "libstdc++", "libgcc_s"] {
            #expect(!libs.contains { $0.hasPrefix(linkedIn) }, "\(linkedIn) is linked in, not loaded")
        }
    }
}
