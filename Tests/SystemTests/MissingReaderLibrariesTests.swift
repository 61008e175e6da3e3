import Foundation
import NFCReaders
import Testing

/// libpcsclite and libnfc are opened on first use (CPCSCLite, CLibNFC). A machine where they
/// cannot be loaded still runs every command that needs no reader, and a command that needs one
/// says which library is missing and how to install it: never "pcscd is not running" or "no
/// reader", never a crash. Simulated with files by those names that are not libraries, found
/// first through LD_LIBRARY_PATH (dlopen then fails as for a missing or broken library).
@Suite struct MissingReaderLibrariesTests {
    static func brokenLibraries() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-broken-libs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in ["libnfc.so.6", "libpcsclite.so.1"] {
            try Data("not a shared library\n".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        return dir
    }

    @Test func commandsWithoutAReaderRunAndReaderCommandsNameTheMissingLibrary() throws {
        let dir = try Self.brokenLibraries()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let environment = ["LD_LIBRARY_PATH": dir]

        let version = try runCLI(["--version"], environment: environment)
        #expect(version.status == 0 && !version.stdout.isEmpty, "\(version.stderr)")
        let decoded = try runCLI(["decode", "--json", "D1010855016578616D706C65"], environment: environment)
        #expect(decoded.status == 0 && decoded.stdout.contains("http://www.example"), "\(decoded.stderr)")

        let scan = try runCLI(["scan", "--json", "--timeout", "5", "--reader", "libnfc:pn532_uart:/dev/null"], environment: environment, timeout: 30)
        #expect(scan.status == 3, "exit 3: no reader can be used (\(scan.stderr))")
        #expect(scan.stdout.isEmpty)
        #expect(scan.stderr.contains("libnfc.so.6 could not be loaded") && scan.stderr.contains("apt-get install libnfc6"), "\(scan.stderr)")
        #expect(scan.stderr.contains("libpcsclite.so.1 could not be loaded") && scan.stderr.contains("apt-get install libpcsclite1"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("pcscd is not running"), "\(scan.stderr)")

        let readers = try runCLI(["readers", "--json"], environment: environment)
        #expect(readers.status == 3 && readers.stderr.contains("libpcsclite.so.1 could not be loaded"), "\(readers.stderr)")

        // doctor names the library and its package, with pcscd running beside it.
        let doctor = try runCLI(["doctor"], environment: environment)
        #expect(doctor.status == 1, "\(doctor.stdout)")
        #expect(doctor.stdout.contains("[FAIL] pcscd-running: libpcsclite.so.1 (pcsc-lite's client library) could not be loaded"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("fix: \(PCSCBackend.libraryFix)") && !doctor.stdout.contains("pcscd is not reachable"), "\(doctor.stdout)")
    }
}
